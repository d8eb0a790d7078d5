import Logging
import NearbySupport
import UCI

extension VirtualUWBSWorld {
    /// One due round of one session: a controller ranges with every DST address; a controlee
    /// checks whether a controller reached it. `device` is attached (the scheduler found the
    /// round on it).
    func runRound(_ device: Device, token: UInt32, at time: Double) {
        let id = device.id
        guard let session = device.uwbs.session(token: token) else { return }
        guard session.isController else {
            let served = session.servedSinceCheck
            let reaction = device.uwbs.checkReception(token, at: time)
            if !served {
                for address in session.configuration.destinationAddresses {
                    broadcaster.yield(.round(timeoutRound(id, session.id, address, time)))
                }
            }
            handle(reaction, from: device, at: time)
            return
        }
        // One radio per device: the device's own rounds run one after the other (a round due
        // while another session's round holds the radio waits until it ends).
        if let busy = radioBusy(device, excluding: token, at: time) {
            device.uwbs.deferRound(token, to: busy.until)
            broadcaster.yield(.radioBusy(id, sessionID: session.id, busyWith: busy.sessionID, deferred: true))
            return
        }
        let duration = session.configuration.roundDuration
        occupyRadio(device, token: token, from: time, for: duration)
        let blockStart = time - session.hopOffset(block: session.roundIndex + 1)
        // The round's exchanges, one per DST address, in a buffer kept between rounds (a round
        // never suspends, so one buffer serves them all).
        var exchanges = roundExchanges
        roundExchanges = []
        defer {
            exchanges.removeAll(keepingCapacity: true)
            roundExchanges = exchanges
        }
        for address in session.configuration.destinationAddresses {
            guard !faults.isSilent(id), let peer = findPeer(for: session, on: id, address: address),
                let ownAddress = session.configuration.deviceMACAddress
            else {
                exchanges.append(RoundExchange(result: RoundResult(address: address)))
                continue
            }
            // The peer's radio may hold another session's round (a controlee cannot move a
            // round a remote controller times): it misses this one, and both sides report the
            // round failed (the controlee at once: it knows it could not listen).
            if let busy = radioBusy(peer.device, excluding: peer.token, at: time) {
                broadcaster.yield(.radioBusy(peer.device.id, sessionID: session.id, busyWith: busy.sessionID, deferred: false))
                exchanges.append(
                    RoundExchange(
                        result: RoundResult(address: address),
                        served: (peer.device, peer.token, RoundResult(address: ownAddress))))
                continue
            }
            occupyRadio(peer.device, token: peer.token, from: time, for: duration)
            let sceneTime = timeline.startScenarioIfNeeded(at: time, session: "\(id)/\(session.id)")
            let controllerScene = device.sceneID ?? sceneID(for: id, asController: true)
            let controleeScene = peer.device.sceneID ?? sceneID(for: peer.device.id, asController: false)
            let mine: SimulatedMeasurement
            let theirs: SimulatedMeasurement
            do {
                (mine, theirs) = try scene.measureExchange(controllerScene, controleeScene, at: sceneTime)
            } catch {
                logger.error("scene: \(error)", metadata: ["device": "\(id)"])
                exchanges.append(RoundExchange(result: RoundResult(address: address)))
                continue
            }
            let controleeView = Self.sharedRound(theirs, controller: mine)
            exchanges.append(
                RoundExchange(
                    result: RoundResult(address: address, measurement: mine, peerMeasurement: theirs),
                    peer: peer.device.id, sceneTime: sceneTime,
                    served: (peer.device, peer.token, RoundResult(address: ownAddress, measurement: controleeView, peerMeasurement: mine))))
        }
        let reaction = device.uwbs.runRound(token, at: time, results: exchanges.lazy.map { $0.result })
        // The exchanges are read in place (copying one copies two measurements).
        exchanges.withUnsafeBufferPointer { exchanges in
            for index in exchanges.indices {
                broadcaster.yield(
                    .round(
                        VirtualRangingRound(
                            device: id, sessionID: session.id, peerAddress: exchanges[index].result.address,
                            peerDevice: exchanges[index].peer, worldTime: time, sceneTime: exchanges[index].sceneTime,
                            measurement: exchanges[index].result.measurement)))
            }
        }
        handle(reaction, from: device, at: time)
        exchanges.withUnsafeBufferPointer { exchanges in
            for index in exchanges.indices {
                // A peer detached by the reactions handled so far is not served.
                guard let served = exchanges[index].served, served.device.isAttached else { continue }
                let peerReaction = served.device.uwbs.serve(served.token, at: time, blockStart: blockStart, result: served.result)
                broadcaster.yield(
                    .round(
                        VirtualRangingRound(
                            device: served.device.id, sessionID: session.id, peerAddress: served.result.address,
                            peerDevice: exchanges[index].peer == nil ? nil : id, worldTime: time,
                            sceneTime: exchanges[index].sceneTime, measurement: served.result.measurement)))
                handle(peerReaction, from: served.device, at: time)
            }
        }
    }

    /// One DST address of a controller's round: what the controller reports and, if a peer's
    /// session was reached (or missed the round because its radio was busy), what that peer
    /// reports.
    struct RoundExchange {
        /// The controller's result for the address.
        var result: RoundResult
        /// The peer device ranged with; `nil` for a failed round.
        var peer: VirtualUWBSDeviceID?
        /// The scenario time of a ranged round.
        var sceneTime: Double?
        /// The peer's session to serve, and its result.
        var served: (device: Device, token: UInt32, result: RoundResult)?
    }

    /// The round holding `device`'s radio at `time`, if it belongs to a session other than
    /// `token`: until when, and its session ID.
    private func radioBusy(_ device: Device, excluding token: UInt32, at time: Double) -> (until: Double, sessionID: UInt32)? {
        guard let radio = device.radio, radio.token != token, radio.until > time + 1e-9 else { return nil }
        let sessionID = device.uwbs.sessionID(token: radio.token) ?? radio.token
        return (radio.until, sessionID)
    }

    /// Session `token`'s round holds `device`'s radio from `time` for `duration` seconds.
    private func occupyRadio(_ device: Device, token: UInt32, from time: Double, for duration: Double) {
        let until = time + duration
        if let radio = device.radio, radio.until > until { return }
        device.radio = (until, token)
    }

    private func timeoutRound(
        _ id: VirtualUWBSDeviceID, _ sessionID: UInt32, _ address: UCIMACAddress, _ time: Double
    ) -> VirtualRangingRound {
        VirtualRangingRound(
            device: id, sessionID: sessionID, peerAddress: address, peerDevice: nil, worldTime: time, sceneTime: nil,
            measurement: nil)
    }

    /// The controlee's report of a round: one two-way exchange gives both sides the same
    /// outcome and distance (and the controller's NLoS verdict); angles, their figures of merit
    /// and RSSI are the controlee's own.
    static func sharedRound(_ controlee: SimulatedMeasurement?, controller: SimulatedMeasurement?) -> SimulatedMeasurement? {
        guard var view = controlee, let controller else { return controlee }
        view.status = controller.status
        view.distance = controller.distance
        view.isOutlier = controller.isOutlier
        view.reportedNonLineOfSight = controller.reportedNonLineOfSight
        if !controller.isValid {
            view.azimuth = nil
            view.elevation = nil
            view.azimuthFigureOfMerit = nil
            view.elevationFigureOfMerit = nil
            view.rssi = nil
        }
        return view
    }

    /// The device and session answering `address` for `session` (same session ID, ACTIVE,
    /// compatible), if one is in the world. Devices with the address that cannot range are
    /// reported once as ``VirtualUWBSEvent/cannotRange(_:sessionID:peer:peerDevice:reason:)``.
    private func findPeer(
        for session: VirtualSession, on id: VirtualUWBSDeviceID, address: UCIMACAddress
    ) -> (device: Device, token: UInt32)? {
        for peer in devicesInOrder where peer.id != id {
            let peerID = peer.id
            guard !faults.isSilent(peerID) else { continue }
            let token = peer.uwbs.firstActiveSession(id: session.id, address: address) { candidate in
                guard let reason = RangingCompatibility.mismatch(session.configuration, candidate.configuration) else {
                    return true
                }
                let key = "\(id)|\(session.id)|\(address)|\(peerID)"
                if reportedMismatches.insert(key).inserted {
                    broadcaster.yield(.cannotRange(id, sessionID: session.id, peer: address, peerDevice: peerID, reason: reason))
                }
                return false
            }
            if let token { return (peer, token) }
        }
        return nil
    }

    // MARK: Places

    /// The scene device of `id`, placing it now if needed (see ``VirtualUWBSPlacement``).
    func sceneID(for id: VirtualUWBSDeviceID, asController: Bool) -> SceneDeviceID {
        guard let device = devices[id] else { return SceneDeviceID("detached-\(id.rawValue)") }
        if let placed = device.sceneID { return placed }
        let sceneID: SceneDeviceID
        let trajectory: Trajectory
        var placement = device.placement
        if placement == .automatic {
            let hostTaken = devices.values.contains { $0.id != id && ($0.sceneID == .host || $0.placement == .host) }
            placement = asController && !hostTaken ? .host : .accessory(nextFreeAccessory())
        }
        switch placement {
        case .host, .automatic:
            sceneID = .host
            trajectory = scenario.hostTrajectory
        case .accessory(let index):
            sceneID = .accessory(index)
            devices[id]?.accessoryIndex = index
            trajectory = (device.peerScenario ?? scenario).trajectory(forAccessory: index, seed: seed)
        case .custom(let custom, let path):
            sceneID = custom
            trajectory = path
        }
        scene.place(sceneID, on: trajectory)
        devices[id]?.sceneID = sceneID
        broadcaster.yield(.devicePlaced(id, sceneID))
        return sceneID
    }

    /// The smallest accessory index no attached device holds or asked for.
    func nextFreeAccessory() -> Int {
        var taken = Set<Int>()
        for device in devices.values {
            if case .accessory(let index) = device.placement { taken.insert(index) }
            if let index = device.accessoryIndex { taken.insert(index) }
        }
        var index = 0
        while taken.contains(index) { index += 1 }
        return index
    }

    /// Frees a detached device's place (removing it from the scene if no one else is there).
    func release(_ device: Device) {
        guard let placed = device.sceneID else { return }
        if !devices.values.contains(where: { $0.sceneID == placed }) {
            scene.remove(placed)
        }
    }
}
