import Logging
import NearbySupport
import Synchronization
import UCI

// The device registry: devices attach (a transport opened, a TCP host connected), detach, and
// built-in peers are added and removed.
extension VirtualUWBSWorld {
    /// A new device identifier (for a transport that attaches later).
    nonisolated func allocateID() -> VirtualUWBSDeviceID {
        VirtualUWBSDeviceID(rawValue: idCounter.add(1, ordering: .relaxed).newValue)
    }

    /// An in-process transport for a new device of this world. Nothing is attached until the
    /// transport is opened; each ``VirtualUWBSTransport/open()`` powers up a fresh UWBS.
    public nonisolated func makeTransport(
        configuration: VirtualUWBSConfiguration = .default, placement: VirtualUWBSPlacement = .automatic, name: String = "sim"
    ) -> VirtualUWBSTransport {
        VirtualUWBSTransport(world: self, id: allocateID(), configuration: configuration, placement: placement, name: name)
    }

    /// Attaches (powers up) a UCI-driven device: it sends CORE_DEVICE_STATUS_NTF(READY) to
    /// `output` and reads packets from the returned inbox.
    /// - Throws: ``VirtualUWBSError``: `shutDown`, `unplugged` while a disconnect fault holds,
    ///   `invalidParameter` for a configuration that does not validate.
    func attach(
        _ id: VirtualUWBSDeviceID, name: String, configuration: VirtualUWBSConfiguration, placement: VirtualUWBSPlacement,
        output: VirtualUWBSOutput
    ) throws(VirtualUWBSError) -> VirtualUWBSInbox {
        guard !isShutDown else { throw VirtualUWBSError(.shutDown, "the virtual UWBS world was shut down") }
        try configuration.validate()
        if !isPresent(id) {
            throw VirtualUWBSError(.unplugged, "\(id) (\(name)) is unplugged (an injected disconnect fault)")
        }
        if devices[id] != nil { detach(id, reason: "reopened", hangUp: true) }
        generation += 1
        let (inbox, pump) = startPump(for: id, generation: generation)
        var uwbs = VirtualUWBS(configuration: configuration)
        let power = uwbs.powerOn()
        devices[id] = Device(
            id: id, name: name, uwbs: uwbs, output: output, inbox: inbox, pump: pump, generation: generation,
            placement: placement, isPeer: false)
        devicesChanged()
        broadcaster.yield(.deviceAttached(id, name: name, isPeer: false))
        handle(power, from: id)
        ensureScheduler()
        return inbox
    }

    /// Keeps ``devicesInOrder`` and ``outputsTimed`` with `devices` (after every change).
    private func devicesChanged() {
        devicesInOrder = devices.keys.sorted().compactMap { devices[$0] }
        outputsTimed = devicesInOrder.allSatisfy { $0.output?.timed ?? true }
    }

    /// Detaches a device: its sessions vanish (peers ranging with it see RX timeouts), its
    /// place in the scene is freed, peers it spawned are removed. With `hangUp` its transport
    /// is told (the in-process stream ends with `disconnected`, a TCP connection is closed).
    func detach(_ id: VirtualUWBSDeviceID, reason: String, hangUp: Bool) {
        guard let device = devices.removeValue(forKey: id) else { return }
        device.isAttached = false
        devicesChanged()
        device.pump?.cancel()
        device.inbox?.finish()
        if hangUp { device.output?.hangUp(reason) }
        faults.deviceDetached(id)
        for session in device.uwbs.sessionSnapshots {
            broadcaster.yield(
                .session(
                    id,
                    VirtualSessionChange(
                        sessionID: session.sessionID, token: session.token, state: .deinitialized,
                        reason: .stateChangeWithSessionManagementCommands)))
        }
        release(device)
        for spawned in devices.values.filter({ $0.spawnedBy?.device == id }).map(\.id) {
            detach(spawned, reason: "its host \(id) went away", hangUp: false)
        }
        reportedMismatches.removeAll()
        broadcaster.yield(.deviceDetached(id, reason: reason))
    }

    /// Removes a device (a built-in peer, or any device: its transport sees a hang-up).
    /// - Throws: ``VirtualUWBSError`` (`unknownDevice`).
    public func remove(_ id: VirtualUWBSDeviceID) throws(VirtualUWBSError) {
        guard devices[id] != nil else { throw unknownDevice(id) }
        detach(id, reason: "removed", hangUp: true)
    }

    /// Adds a built-in virtual peer whose session is ACTIVE at once.
    /// - Parameters:
    ///   - peer: the peer's role, address and session.
    ///   - placement: its place; `nil` takes the next free accessory of the scenario.
    /// - Returns: the peer's device identifier.
    /// - Throws: ``VirtualUWBSError``: `invalidParameter` from ``VirtualPeer/validate()``,
    ///   `shutDown`.
    @discardableResult
    public func addPeer(_ peer: VirtualPeer, placement: VirtualUWBSPlacement? = nil) throws(VirtualUWBSError)
        -> VirtualUWBSDeviceID
    {
        try addPeer(peer, placement: placement, spawnedBy: nil)
    }

    private func addPeer(
        _ peer: VirtualPeer, placement: VirtualUWBSPlacement?, spawnedBy: (VirtualUWBSDeviceID, UInt32)?
    ) throws(VirtualUWBSError) -> VirtualUWBSDeviceID {
        guard !isShutDown else { throw VirtualUWBSError(.shutDown, "the virtual UWBS world was shut down") }
        try peer.validate()
        let id = allocateID()
        var uwbs = VirtualUWBS(
            configuration: VirtualUWBSConfiguration(requiresReset: false, supportedChannels: VirtualUWBSConfiguration.firaChannels))
        _ = uwbs.powerOn()
        let place = placement ?? .accessory(nextFreeAccessory())
        let name = "peer \(peer.address)"
        devices[id] = Device(
            id: id, name: name, uwbs: uwbs, generation: 0, placement: place, peerScenario: peer.scenario, isPeer: true,
            spawnedBy: spawnedBy.map { (device: $0.0, sessionID: $0.1) })
        devicesChanged()
        broadcaster.yield(.deviceAttached(id, name: name, isPeer: true))
        if let reaction = devices[id]?.uwbs.startPeerSession(id: peer.sessionID, configuration: peer.sessionConfiguration, at: now) {
            handle(reaction, from: id)
        }
        ensureScheduler()
        wakeScheduler()
        return id
    }

    /// Automatic peers: one mirrored peer per DST address of the session that no device holds.
    func spawnPeers(for id: VirtualUWBSDeviceID, sessionID: UInt32) {
        guard let session = devices[id]?.uwbs.sessionSnapshots.first(where: { $0.sessionID == sessionID }) else { return }
        for address in session.configuration.destinationAddresses {
            let held = devices.values.contains { device in
                device.id != id
                    && device.uwbs.sessionSnapshots.contains {
                        $0.sessionID == sessionID && $0.configuration.deviceMACAddress == address
                    }
            }
            guard !held, let peer = VirtualPeer(mirroring: session.configuration, sessionID: sessionID, address: address) else {
                continue
            }
            do {
                _ = try addPeer(peer, placement: nil, spawnedBy: (id, sessionID))
            } catch {
                logger.notice("could not add an automatic peer for \(address): \(error)", metadata: ["device": "\(id)"])
            }
        }
    }

    /// Shuts the world down: every device is detached (transports see a hang-up), the
    /// scheduler stops, event streams end. Later attaches fail with `shutDown`.
    public func shutdown() {
        guard !isShutDown else { return }
        isShutDown = true
        scheduler.stop()
        for id in devices.keys.sorted() {
            detach(id, reason: "the virtual UWBS world was shut down", hangUp: true)
        }
        broadcaster.finish()
    }
}
