import Logging
import NearbySupport
import UCI

extension VirtualUWBSWorld {
    /// One due round of one session: a controller ranges with every DST address; a controlee
    /// checks whether a controller reached it.
    func runRound(device id: VirtualUWBSDeviceID, token: UInt32, at time: Double) {
        guard let session = devices[id]?.uwbs.session(token: token) else { return }
        guard session.isController else {
            let served = session.servedSinceCheck
            guard let reaction = devices[id]?.uwbs.checkReception(token, at: time) else { return }
            if !served {
                for address in session.configuration.destinationAddresses {
                    broadcaster.yield(.round(timeoutRound(id, session.id, address, time)))
                }
            }
            handle(reaction, from: id)
            return
        }
        // One radio per device: the device's own rounds run one after the other (a round due
        // while another session's round holds the radio waits until it ends).
        if let busy = radioBusy(id, excluding: token, at: time) {
            devices[id]?.uwbs.deferRound(token, to: busy.until)
            broadcaster.yield(.radioBusy(id, sessionID: session.id, busyWith: busy.sessionID, deferred: true))
            return
        }
        let duration = session.configuration.roundDuration
        occupyRadio(id, token: token, from: time, for: duration)
        let blockStart = time - session.hopOffset(block: session.roundIndex + 1)
        var results: [RoundResult] = []
        var rounds: [VirtualRangingRound] = []
        var served: [(id: VirtualUWBSDeviceID, token: UInt32, result: RoundResult, round: VirtualRangingRound)] = []
        for address in session.configuration.destinationAddresses {
            guard !faults.isSilent(id), let peer = findPeer(for: session, on: id, address: address),
                let ownAddress = session.configuration.deviceMACAddress
            else {
                results.append(RoundResult(address: address))
                rounds.append(timeoutRound(id, session.id, address, time))
                continue
            }
            // The peer's radio may hold another session's round (a controlee cannot move a
            // round a remote controller times): it misses this one, and both sides report the
            // round failed (the controlee at once: it knows it could not listen).
            if let busy = radioBusy(peer.id, excluding: peer.token, at: time) {
                broadcaster.yield(.radioBusy(peer.id, sessionID: session.id, busyWith: busy.sessionID, deferred: false))
                results.append(RoundResult(address: address))
                rounds.append(timeoutRound(id, session.id, address, time))
                served.append((peer.id, peer.token, RoundResult(address: ownAddress), timeoutRound(peer.id, session.id, ownAddress, time)))
                continue
            }
            occupyRadio(peer.id, token: peer.token, from: time, for: duration)
            let sceneTime = timeline.startScenarioIfNeeded(at: time, session: "\(id)/\(session.id)")
            let controllerScene = sceneID(for: id, asController: true)
            let controleeScene = sceneID(for: peer.id, asController: false)
            let mine: SimulatedMeasurement?
            let theirs: SimulatedMeasurement?
            do {
                mine = try scene.measure(from: controllerScene, to: controleeScene, at: sceneTime)
                theirs = try scene.measure(from: controleeScene, to: controllerScene, at: sceneTime)
            } catch {
                logger.error("scene: \(error)", metadata: ["device": "\(id)"])
                results.append(RoundResult(address: address))
                rounds.append(timeoutRound(id, session.id, address, time))
                continue
            }
            let controleeView = Self.sharedRound(theirs, controller: mine)
            results.append(RoundResult(address: address, measurement: mine, peerMeasurement: theirs))
            rounds.append(
                VirtualRangingRound(
                    device: id, sessionID: session.id, peerAddress: address, peerDevice: peer.id, worldTime: time,
                    sceneTime: sceneTime, measurement: mine))
            served.append(
                (
                    peer.id, peer.token, RoundResult(address: ownAddress, measurement: controleeView, peerMeasurement: mine),
                    VirtualRangingRound(
                        device: peer.id, sessionID: session.id, peerAddress: ownAddress, peerDevice: id, worldTime: time,
                        sceneTime: sceneTime, measurement: controleeView)
                ))
        }
        guard let reaction = devices[id]?.uwbs.runRound(token, at: time, results: results) else { return }
        for round in rounds { broadcaster.yield(.round(round)) }
        handle(reaction, from: id)
        for entry in served {
            guard let peerReaction = devices[entry.id]?.uwbs.serve(entry.token, at: time, blockStart: blockStart, result: entry.result) else {
                continue
            }
            broadcaster.yield(.round(entry.round))
            handle(peerReaction, from: entry.id)
        }
    }

    /// The round holding device `id`'s radio at `time`, if it belongs to a session other than
    /// `token`: until when, and its session ID.
    private func radioBusy(_ id: VirtualUWBSDeviceID, excluding token: UInt32, at time: Double) -> (until: Double, sessionID: UInt32)? {
        guard let radio = devices[id]?.radio, radio.token != token, radio.until > time + 1e-9 else { return nil }
        let sessionID = devices[id]?.uwbs.session(token: radio.token)?.id ?? radio.token
        return (radio.until, sessionID)
    }

    /// Session `token`'s round holds device `id`'s radio from `time` for `duration` seconds.
    private func occupyRadio(_ id: VirtualUWBSDeviceID, token: UInt32, from time: Double, for duration: Double) {
        let until = time + duration
        if let radio = devices[id]?.radio, radio.until > until { return }
        devices[id]?.radio = (until, token)
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
    ) -> (id: VirtualUWBSDeviceID, token: UInt32)? {
        for peer in devicesInOrder where peer.id != id {
            let peerID = peer.id
            guard !faults.isSilent(peerID) else { continue }
            let candidates = peer.uwbs.activeSessions(id: session.id, address: address)
            for candidate in candidates {
                if let reason = RangingCompatibility.mismatch(session.configuration, candidate.configuration) {
                    let key = "\(id)|\(session.id)|\(address)|\(peerID)"
                    if reportedMismatches.insert(key).inserted {
                        broadcaster.yield(
                            .cannotRange(id, sessionID: session.id, peer: address, peerDevice: peerID, reason: reason))
                    }
                    continue
                }
                return (peerID, candidate.token)
            }
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
