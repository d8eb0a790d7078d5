public import UCI

extension VirtualUWBS {
    /// A round (controller) or reception check (controlee) that is due.
    struct DueRound {
        /// The session's token.
        var token: UInt32
        /// When it is due, world time.
        var due: Double
        /// 0 for a controller's round, 1 for a controlee's check (controllers go first).
        var rank: Int
        /// When the session's last round ran (sessions due at once take turns).
        var lastRound: Double
        /// The session's creation order on its device.
        var order: Int

        /// Runs before `other` by due time, then rank, then the least recent last round.
        func precedes(_ other: DueRound) -> Bool {
            (due, rank, lastRound) < (other.due, other.rank, other.lastRound)
        }
    }

    /// Of the ACTIVE sessions whose next round (controller) or reception check (controlee) is
    /// due at or before `time`, the one to run first: ``DueRound/precedes(_:)``, then creation
    /// order. The scheduler asks this once per device and round, so it sorts and allocates
    /// nothing, and reads the sessions' fields in place.
    ///
    /// `mutating` only so the caller's device is accessed in place: called on a device's stored
    /// state, a non-mutating method works on a copy of the whole UWBS. It changes nothing.
    mutating func earliestDueRound(upTo time: Double) -> DueRound? {
        sessions.withUnsafeSessions { sessions in
            var best: DueRound?
            for index in sessions.indices {
                let session = sessions.baseAddress! + index  // read in place (see withUnsafeSessions)
                guard session.pointee.state == .active, let due = session.pointee.nextRoundTime, due <= time else { continue }
                let round = DueRound(
                    token: session.pointee.token, due: due, rank: session.pointee.isController ? 0 : 1,
                    lastRound: session.pointee.lastRoundTime, order: session.pointee.order)
                if let current = best, !round.precedes(current), current.precedes(round) || current.order < round.order { continue }
                best = round
            }
            return best
        }
    }

    /// The earliest time at which an ACTIVE session can do something observable: its next
    /// round (controller) or reception check (controlee), but for a controlee already served
    /// since its last check the check after next: the check due then only moves its schedule
    /// (``checkReception(_:at:)`` reports nothing for a served session), so the real-time
    /// scheduler need not wake for it; it runs, in order, at the next wake-up, before any round
    /// due after it. `mutating` for the reason ``earliestDueRound(upTo:)`` is; it changes nothing.
    mutating func nextDueTime() -> Double? {
        sessions.withUnsafeSessions { sessions in
            var earliest: Double?
            for index in sessions.indices {
                let session = sessions.baseAddress! + index  // read in place (see withUnsafeSessions)
                guard session.pointee.state == .active, var due = session.pointee.nextRoundTime else { continue }
                if session.pointee.servedSinceCheck, !session.pointee.isController {
                    due += session.pointee.interval
                }
                if let current = earliest, current <= due { continue }
                earliest = due
            }
            return earliest
        }
    }

    /// Of the ACTIVE sessions with session ID `id` and DEVICE_MAC_ADDRESS `address` (usually one;
    /// none on most devices), in creation order, the token of the first that `accepts`.
    /// `mutating` for the reason ``earliestDueRound(upTo:)`` is; it changes nothing.
    mutating func firstActiveSession(
        id: UInt32, address: UCIMACAddress, where accepts: (VirtualSession) -> Bool
    ) -> UInt32? {
        sessions.withUnsafeSessions { sessions in
            for index in sessions.indices {
                let session = sessions.baseAddress! + index  // read in place (see withUnsafeSessions)
                guard session.pointee.id == id, session.pointee.state == .active,
                    session.pointee.configuration.deviceMACAddress == address
                else { continue }
                if accepts(session.pointee) { return session.pointee.token }
            }
            return nil
        }
    }

    func session(token: UInt32) -> VirtualSession? { sessions[token] }

    /// The session ID of session `token`, if it exists.
    func sessionID(token: UInt32) -> UInt32? {
        sessions.index(of: token).map { sessions.values[$0].id }
    }

    /// The controller round of session `token` due now waits until `time`, when the radio is
    /// free (the device runs its own sessions one after the other).
    mutating func deferRound(_ token: UInt32, to time: Double) {
        guard let index = sessions.index(of: token) else { return }
        sessions.values[index].deferRound(to: time)
    }

    /// A controller's scheduled round at `time`: one SESSION_INFO_NTF with `results` (one per
    /// DST address, in order), then the next round is scheduled. The session is changed in place
    /// (the rounds run at every ranging interval of every session).
    mutating func runRound(_ token: UInt32, at time: Double, results: some Collection<RoundResult>) -> VirtualUWBSReaction {
        var reaction = VirtualUWBSReaction()
        guard let index = sessions.index(of: token), sessions.values[index].state == .active else { return reaction }
        sessions.values[index].advanceSchedule(after: time)
        sessions.values[index].lastRoundTime = time
        report(at: index, results: results, into: &reaction)
        return reaction
    }

    /// A controller's round (of its block starting at `blockStart`) reached this controlee
    /// session at `time`.
    mutating func serve(_ token: UInt32, at time: Double, blockStart: Double, result: RoundResult) -> VirtualUWBSReaction {
        var reaction = VirtualUWBSReaction()
        guard let index = sessions.index(of: token), sessions.values[index].state == .active else { return reaction }
        sessions.values[index].served(blockStart: blockStart)
        report(at: index, results: CollectionOfOne(result), into: &reaction)
        return reaction
    }

    /// A controlee's reception check at `time`: if no controller's round reached it in the last
    /// interval, it reports RX_TIMEOUT for its DST addresses (as hardware does).
    mutating func checkReception(_ token: UInt32, at time: Double) -> VirtualUWBSReaction {
        var reaction = VirtualUWBSReaction()
        guard let index = sessions.index(of: token), sessions.values[index].state == .active else { return reaction }
        if sessions.values[index].configuration.hoppingMode != 0 {
            // A hopping round can be anywhere in its block: one check per block without one.
            sessions.values[index].nextRoundTime = time + sessions.values[index].interval
        } else {
            sessions.values[index].advanceSchedule(after: time)
        }
        if sessions.values[index].servedSinceCheck {
            sessions.values[index].servedSinceCheck = false
            return reaction
        }
        let addresses = sessions.values[index].configuration.destinationAddresses
        report(at: index, results: addresses.lazy.map { RoundResult(address: $0) }, into: &reaction)
        return reaction
    }

    /// Counts the round of the session at `index` (in ``sessions``), sends its SESSION_INFO_NTF
    /// (as SESSION_INFO_NTF_CONFIG allows) and stops the session at MAX_RR_RETRY failed rounds in
    /// a row or MAX_NUMBER_OF_MEASUREMENTS rounds. The session's counters change in place.
    private mutating func report(
        at index: Int, results: some Collection<RoundResult>, into reaction: inout VirtualUWBSReaction
    ) {
        guard !results.isEmpty else { return }
        let token = sessions.values[index].token
        let config = sessions.withUnsafeSessions { $0.baseAddress![index].configuration }
        let aoa = config.aoaResultRequest
        var measurements: [UCITwoWayMeasurement] = []
        measurements.reserveCapacity(results.count)
        var firstValid: UCITwoWayMeasurement?
        for result in results {
            let measurement = Self.twoWayMeasurement(
                result, slot: UInt8(truncatingIfNeeded: measurements.count + 1), aoa: aoa)
            if firstValid == nil, measurement.isValid { firstValid = measurement }
            measurements.append(measurement)
        }
        if Self.shouldNotify(&sessions.values[index], firstValid: firstValid) {
            let info = UCISessionInfo(
                sequenceNumber: sessions.values[index].sequenceNumber, session: token,
                currentRangingInterval: config.rangingInterval, usesExtendedAddresses: config.macAddressMode != .short,
                measurements: .twoWay(measurements))
            emit(.sessionInfo(info), into: &reaction)
        }
        sessions.values[index].sequenceNumber &+= 1
        sessions.values[index].rangingCount &+= 1
        let failures = firstValid == nil ? sessions.values[index].consecutiveFailures + 1 : 0
        sessions.values[index].consecutiveFailures = failures
        let rangingCount = sessions.values[index].rangingCount
        if config.maxRangingRoundRetries > 0, failures >= Int(config.maxRangingRoundRetries) {
            stop(token, reason: .maxRangingRoundRetryCountReached, into: &reaction)
        } else if config.maxNumberOfMeasurements > 0, rangingCount >= UInt32(config.maxNumberOfMeasurements) {
            stop(token, reason: .maxNumberOfMeasurementsReached, into: &reaction)
        }
    }

    /// SESSION_INFO_NTF_CONFIG: 0 never, 1 always, 2-4 while the first valid measurement is
    /// inside the proximity window, the AoA window or both, 5-7 when that changes.
    private static func shouldNotify(_ session: inout VirtualSession, firstValid: UCITwoWayMeasurement?) -> Bool {
        let config = session.configuration
        let mode = config.notificationConfig.rawValue
        guard mode >= 2 else { return mode == 1 }
        var inside = false
        if let m = firstValid {
            let bounds = config.aoaBounds
            let proximity = config.proximityRange.contains(m.distance)
            let angles =
                (bounds.minimumAzimuth.rawValue...bounds.maximumAzimuth.rawValue).contains(m.azimuth.rawValue)
                && (bounds.minimumElevation.rawValue...bounds.maximumElevation.rawValue).contains(m.elevation.rawValue)
            switch mode {
            case 2, 5: inside = proximity
            case 3, 6: inside = angles
            default: inside = proximity && angles
            }
        }
        if mode <= 4 { return inside }
        defer { session.lastTriggerInside = inside }
        return inside != session.lastTriggerInside
    }

    /// One measurement of SESSION_INFO_NTF from a round's result: RX_TIMEOUT with every value 0
    /// when nothing was measured; otherwise the scene's values (already quantised as UCI carries
    /// them) with Q9.7 angles as AOA_RESULT_REQ asks, and the peer's angles as destination angles.
    static func twoWayMeasurement(_ result: RoundResult, slot: UInt8, aoa: UCIAoAResultRequest) -> UCITwoWayMeasurement {
        guard let m = result.measurement, m.isValid else {
            let status = result.measurement?.status ?? SimulatedMeasurement.statusRXTimeout
            return UCITwoWayMeasurement(macAddress: result.address, status: UCIStatus(rawValue: status), distance: 0, slotIndex: slot)
        }
        let wantsAzimuth = aoa == .enabled || aoa == .azimuthOnly
        let wantsElevation = aoa == .enabled || aoa == .elevationOnly
        let fields = m.uciFields
        var measurement = UCITwoWayMeasurement(
            macAddress: result.address, status: UCIStatus(rawValue: fields.status), nlos: fields.nonLineOfSight,
            distance: fields.distanceCentimetres, slotIndex: slot, rssi: m.rssi == nil ? 0 : fields.rssiQ7_1)
        if wantsAzimuth, m.azimuth != nil {
            measurement.azimuth = UCIAngle(rawValue: fields.azimuthQ9_7)
            measurement.azimuthFigureOfMerit = fields.azimuthFigureOfMerit
        }
        if wantsElevation, m.elevation != nil {
            measurement.elevation = UCIAngle(rawValue: fields.elevationQ9_7)
            measurement.elevationFigureOfMerit = fields.elevationFigureOfMerit
        }
        if let peer = result.peerMeasurement, peer.isValid {
            let peerFields = peer.uciFields
            if wantsAzimuth, peer.azimuth != nil {
                measurement.destinationAzimuth = UCIAngle(rawValue: peerFields.azimuthQ9_7)
                measurement.destinationAzimuthFigureOfMerit = peerFields.azimuthFigureOfMerit
            }
            if wantsElevation, peer.elevation != nil {
                measurement.destinationElevation = UCIAngle(rawValue: peerFields.elevationQ9_7)
                measurement.destinationElevationFigureOfMerit = peerFields.elevationFigureOfMerit
            }
        }
        return measurement
    }

    /// The UWBS stops an ACTIVE session on its own: SESSION_STATUS_NTF(IDLE, `reason`).
    /// - Throws: ``VirtualUWBSError`` (`unknownSession`) if no session with this ID is ACTIVE.
    public mutating func stopSession(id: UInt32, reason: UCIReasonCode) throws(VirtualUWBSError) -> VirtualUWBSReaction {
        guard let session = sessions.values.first(where: { $0.id == id && $0.state == .active }) else {
            let states = orderedSessions.map { "\($0.id) \($0.state.name ?? $0.state.description)" }
            throw VirtualUWBSError(
                .unknownSession,
                "no ACTIVE session \(id) to stop; sessions: \(states.isEmpty ? "none" : states.joined(separator: ", "))")
        }
        var reaction = VirtualUWBSReaction()
        stop(session.token, reason: reason, into: &reaction)
        return reaction
    }

    /// Creates a session with `configuration` and starts it without a host: a built-in virtual
    /// peer. The device leaves the power-up "reset required" state.
    mutating func startPeerSession(
        id: UInt32, configuration config: VirtualSessionConfiguration, at time: Double
    ) -> VirtualUWBSReaction {
        var reaction = VirtualUWBSReaction()
        awaitingReset = false
        var session = allocateSession(id: id, type: .ranging)
        session.configuration = config
        session.state = .active
        session.startSchedule(at: time)
        sessions[session.token] = session
        reaction.sessionChanges.append(
            VirtualSessionChange(sessionID: id, token: session.token, state: .active, reason: .stateChangeWithSessionManagementCommands))
        updateActivity(into: &reaction)
        return reaction
    }
}
