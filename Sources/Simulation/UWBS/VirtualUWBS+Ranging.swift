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
        var best: DueRound?
        for index in sessions.indices {
            guard sessions.values[index].state == .active, let due = sessions.values[index].nextRoundTime, due <= time
            else { continue }
            let round = DueRound(
                token: sessions.values[index].token, due: due, rank: sessions.values[index].isController ? 0 : 1,
                lastRound: sessions.values[index].lastRoundTime, order: sessions.values[index].order)
            if let current = best, !round.precedes(current), current.precedes(round) || current.order < round.order { continue }
            best = round
        }
        return best
    }

    /// The earliest time at which an ACTIVE session can do something observable: its next
    /// round (controller) or reception check (controlee), but for a controlee already served
    /// since its last check the check after next: the check due then only moves its schedule
    /// (``checkReception(_:at:)`` reports nothing for a served session), so the real-time
    /// scheduler need not wake for it; it runs, in order, at the next wake-up, before any round
    /// due after it. `mutating` for the reason ``earliestDueRound(upTo:)`` is; it changes nothing.
    mutating func nextDueTime() -> Double? {
        var earliest: Double?
        for index in sessions.indices where sessions.values[index].state == .active {
            guard var due = sessions.values[index].nextRoundTime else { continue }
            if sessions.values[index].servedSinceCheck, !sessions.values[index].isController {
                due += sessions.values[index].interval
            }
            if let current = earliest, current <= due { continue }
            earliest = due
        }
        return earliest
    }

    /// The ACTIVE sessions with session ID `id` and DEVICE_MAC_ADDRESS `address`, in creation
    /// order (usually one; none on most devices).
    /// `mutating` for the reason ``earliestDueRound(upTo:)`` is; it changes nothing.
    mutating func activeSessions(id: UInt32, address: UCIMACAddress) -> [VirtualSession] {
        var found: [VirtualSession] = []
        for index in sessions.indices
        where sessions.values[index].id == id && sessions.values[index].state == .active
            && sessions.values[index].configuration.deviceMACAddress == address
        {
            found.append(sessions.values[index])
        }
        if found.count > 1 { found.sort { $0.order < $1.order } }
        return found
    }

    func session(token: UInt32) -> VirtualSession? { sessions[token] }

    /// The controller round of session `token` due now waits until `time`, when the radio is
    /// free (the device runs its own sessions one after the other).
    mutating func deferRound(_ token: UInt32, to time: Double) {
        sessions[token]?.deferRound(to: time)
    }

    /// A controller's scheduled round at `time`: one SESSION_INFO_NTF with `results` (one per
    /// DST address), then the next round is scheduled.
    mutating func runRound(_ token: UInt32, at time: Double, results: [RoundResult]) -> VirtualUWBSReaction {
        var reaction = VirtualUWBSReaction()
        guard sessions[token]?.state == .active else { return reaction }
        sessions[token]?.advanceSchedule(after: time)
        sessions[token]?.lastRoundTime = time
        report(token, results: results, into: &reaction)
        return reaction
    }

    /// A controller's round (of its block starting at `blockStart`) reached this controlee
    /// session at `time`.
    mutating func serve(_ token: UInt32, at time: Double, blockStart: Double, result: RoundResult) -> VirtualUWBSReaction {
        var reaction = VirtualUWBSReaction()
        guard sessions[token]?.state == .active else { return reaction }
        sessions[token]?.served(blockStart: blockStart)
        report(token, results: [result], into: &reaction)
        return reaction
    }

    /// A controlee's reception check at `time`: if no controller's round reached it in the last
    /// interval, it reports RX_TIMEOUT for its DST addresses (as hardware does).
    mutating func checkReception(_ token: UInt32, at time: Double) -> VirtualUWBSReaction {
        var reaction = VirtualUWBSReaction()
        guard let session = sessions[token], session.state == .active else { return reaction }
        if session.configuration.hoppingMode != 0 {
            // A hopping round can be anywhere in its block: one check per block without one.
            sessions[token]?.nextRoundTime = time + session.interval
        } else {
            sessions[token]?.advanceSchedule(after: time)
        }
        if session.servedSinceCheck {
            sessions[token]?.servedSinceCheck = false
            return reaction
        }
        let timeouts = session.configuration.destinationAddresses.map { RoundResult(address: $0) }
        report(token, results: timeouts, into: &reaction)
        return reaction
    }

    /// Counts the round, sends its SESSION_INFO_NTF (as SESSION_INFO_NTF_CONFIG allows) and stops
    /// the session at MAX_RR_RETRY failed rounds in a row or MAX_NUMBER_OF_MEASUREMENTS rounds.
    private mutating func report(_ token: UInt32, results: [RoundResult], into reaction: inout VirtualUWBSReaction) {
        guard var session = sessions[token], !results.isEmpty else { return }
        let config = session.configuration
        let measurements = results.enumerated().map { index, result in
            Self.twoWayMeasurement(result, slot: UInt8(truncatingIfNeeded: index + 1), aoa: config.aoaResultRequest)
        }
        let firstValid = measurements.first { $0.isValid }
        if shouldNotify(&session, firstValid: firstValid) {
            let info = UCISessionInfo(
                sequenceNumber: session.sequenceNumber, session: token, currentRangingInterval: config.rangingInterval,
                usesExtendedAddresses: config.macAddressMode != .short, measurements: .twoWay(measurements))
            emit(.sessionInfo(info), into: &reaction)
        }
        session.sequenceNumber &+= 1
        session.rangingCount &+= 1
        session.consecutiveFailures = firstValid == nil ? session.consecutiveFailures + 1 : 0
        sessions[token] = session
        if config.maxRangingRoundRetries > 0, session.consecutiveFailures >= Int(config.maxRangingRoundRetries) {
            stop(token, reason: .maxRangingRoundRetryCountReached, into: &reaction)
        } else if config.maxNumberOfMeasurements > 0, session.rangingCount >= UInt32(config.maxNumberOfMeasurements) {
            stop(token, reason: .maxNumberOfMeasurementsReached, into: &reaction)
        }
    }

    /// SESSION_INFO_NTF_CONFIG: 0 never, 1 always, 2-4 while the first valid measurement is
    /// inside the proximity window, the AoA window or both, 5-7 when that changes.
    private func shouldNotify(_ session: inout VirtualSession, firstValid: UCITwoWayMeasurement?) -> Bool {
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
