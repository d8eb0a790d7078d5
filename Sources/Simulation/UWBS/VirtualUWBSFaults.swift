/// The faults in force in a ``VirtualUWBSWorld`` (see ``VirtualUWBSFault``), by device: who is
/// unplugged and until when, whose radio is silent, whose next commands are slow. Pure
/// bookkeeping; the world injects the faults and asks here.
///
/// Silence and slow commands belong to one attachment of a device and end when it is
/// detached; an unplug outlasts the detach it causes (``isPresent(_:)`` is `false` until it is
/// over).
struct VirtualUWBSFaults: Sendable {
    private var unplugged: [VirtualUWBSDeviceID: ContinuousClock.Instant?] = [:]
    private var silent: Set<VirtualUWBSDeviceID> = []
    private var slowCommands: [VirtualUWBSDeviceID: (delay: Duration, count: Int)] = [:]

    /// `false` while a disconnect fault holds for `id` (one that has run out is cleared).
    mutating func isPresent(_ id: VirtualUWBSDeviceID) -> Bool {
        guard let entry = unplugged[id] else { return true }
        if let until = entry, ContinuousClock.now >= until {
            unplugged[id] = nil
            return true
        }
        return false
    }

    /// `id` is unplugged, for `duration` (`nil`: until ``reconnect(_:)``).
    mutating func unplug(_ id: VirtualUWBSDeviceID, for duration: Duration?) {
        unplugged.updateValue(duration.map { ContinuousClock.now.advanced(by: $0) }, forKey: id)
    }

    /// Ends a disconnect fault.
    mutating func reconnect(_ id: VirtualUWBSDeviceID) {
        unplugged[id] = nil
    }

    /// `true` while `id`'s radio is silent (it neither ranges nor answers).
    func isSilent(_ id: VirtualUWBSDeviceID) -> Bool { !silent.isEmpty && silent.contains(id) }

    /// Turns `id`'s radio silence on or off.
    mutating func setSilent(_ id: VirtualUWBSDeviceID, _ on: Bool) {
        if on { silent.insert(id) } else { silent.remove(id) }
    }

    /// `id`'s next `count` commands are answered after `delay` (0: none).
    mutating func slowDown(_ id: VirtualUWBSDeviceID, delay: Duration, count: Int) {
        slowCommands[id] = count > 0 ? (delay, count) : nil
    }

    /// The delay for `id`'s next command if a slow-responses fault holds (counting it down).
    mutating func takeSlowCommandDelay(_ id: VirtualUWBSDeviceID) -> Duration? {
        guard let slow = slowCommands[id], slow.count > 0 else { return nil }
        slowCommands[id] = slow.count > 1 ? (slow.delay, slow.count - 1) : nil
        return slow.delay
    }

    /// `id` was detached: its silence and slow commands end (an unplug stays).
    mutating func deviceDetached(_ id: VirtualUWBSDeviceID) {
        silent.remove(id)
        slowCommands[id] = nil
    }
}
