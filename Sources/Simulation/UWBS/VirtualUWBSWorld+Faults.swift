import NearbySupport

// Fault injection: what a test or `nearby sim` does to a device (``VirtualUWBSFault``); the
// faults in force are kept in ``VirtualUWBSFaults``.
extension VirtualUWBSWorld {
    /// Injects a fault into a device (see ``VirtualUWBSFault``).
    /// - Throws: ``VirtualUWBSError``: `unknownDevice`; `unknownSession` for
    ///   ``VirtualUWBSFault/stopSession(id:reason:)`` without such an ACTIVE session;
    ///   `invalidParameter` for a negative count or delay.
    public func inject(_ fault: VirtualUWBSFault, into id: VirtualUWBSDeviceID) throws(VirtualUWBSError) {
        guard let device = devices[id] else { throw unknownDevice(id) }
        broadcaster.yield(.fault(id, fault))
        switch fault {
        case .deviceError:
            let reaction = device.uwbs.fail()
            handle(reaction, from: id)
        case .stopSession(let sessionID, let reason):
            let reaction = try device.uwbs.stopSession(id: sessionID, reason: reason)
            handle(reaction, from: id)
        case .radioSilence(let on):
            faults.setSilent(id, on)
        case .disconnect(let after):
            if !device.isPeer { faults.unplug(id, for: after) }
            detach(id, reason: "unplugged (injected disconnect)", hangUp: true)
        case .slowResponses(let delay, let count):
            guard delay >= .zero, count >= 0 else {
                throw VirtualUWBSError(.invalidParameter, "slow responses need a delay ≥ 0 and a count ≥ 0, got \(delay) and \(count)")
            }
            faults.slowDown(id, delay: delay, count: count)
        case .commandRetry(let count, let generic):
            guard count >= 0 else {
                throw VirtualUWBSError(.invalidParameter, "the command-retry count must be ≥ 0, got \(count)")
            }
            devices[id]?.uwbs.refuseNextCommands(count, viaGenericError: generic)
        }
        wakeScheduler()
    }

    /// Ends a ``VirtualUWBSFault/disconnect(reconnectAfter:)`` fault: the device can be opened
    /// again.
    public func reconnect(_ id: VirtualUWBSDeviceID) {
        faults.reconnect(id)
    }

    /// `false` while a disconnect fault holds for `id`.
    func isPresent(_ id: VirtualUWBSDeviceID) -> Bool {
        faults.isPresent(id)
    }
}
