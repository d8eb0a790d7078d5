extension FiRaSessionParameters {
    /// The UWB channels FiRa defines.
    public static let validChannels: [UInt8] = [5, 6, 8, 9, 10, 12, 13, 14]
    /// Preamble code indices for BPRF (9-12) ...
    public static let bprfPreambleCodeIndices: ClosedRange<UInt8> = 9...12
    /// ... and for HPRF (25-32).
    public static let hprfPreambleCodeIndices: ClosedRange<UInt8> = 25...32
    /// The most controlees a one-to-many controller can have.
    public static let maximumControlees = 8

    /// Checks every field before anything is sent to a UWBS.
    ///
    /// Checked: roles and ranging method (two-way ranging only: the client decodes TWR range
    /// notifications), multi-node mode against the number of destinations (unicast: one;
    /// one-to-many controller: 1-8), address sizes against MAC_ADDRESS_MODE, duplicate or
    /// self-addressed destinations, channel, preamble code index, SFD ID for the PRF the
    /// preamble selects, RFRAME (SP0, SP1, SP3), preamble duration, STS configuration, length
    /// and IV, that a ranging round (slots × slot duration) fits in the ranging interval, AoA and
    /// notification settings, session priority, ranging round control bits, an absolute
    /// initiation time only with UCI 2.0, and that ``additionalConfigs`` does not repeat a
    /// parameter a field already sets.
    /// - Parameter version: the UWBS's UCI version (from CORE_GET_DEVICE_INFO), `nil` if not
    ///   known yet (version-dependent checks are then skipped).
    /// - Throws: ``FiRaParameterError`` listing every problem found.
    public func validate(for version: UCIVersion? = nil) throws(FiRaParameterError) {
        var problems = checkTopology()
        problems += checkPHY()
        problems += checkTiming(version: version)
        problems += checkReporting()
        problems += checkAdditional(version: version ?? .v2_0)
        if !problems.isEmpty { throw FiRaParameterError(problems: problems) }
    }

    private func problem(_ field: String, _ id: UCIAppConfigID?, _ value: String, _ allowed: String) -> FiRaParameterError.Problem {
        FiRaParameterError.Problem(field: field, parameter: id, value: value, allowed: allowed)
    }

    private func checkTopology() -> [FiRaParameterError.Problem] {
        var problems: [FiRaParameterError.Problem] = []
        if deviceType != .controller && deviceType != .controlee {
            problems.append(problem("deviceType", .deviceType, deviceType.description, "allowed CONTROLEE (0x00) or CONTROLLER (0x01)"))
        }
        if deviceRole != .initiator && deviceRole != .responder {
            problems.append(problem(
                "deviceRole", .deviceRole, deviceRole.description,
                "two-way ranging uses RESPONDER (0x00) or INITIATOR (0x01)"))
        }
        let twoWay: [UCIRangingRoundUsage] = [.ssTWRDeferred, .dsTWRDeferred, .ssTWRNonDeferred, .dsTWRNonDeferred]
        if !twoWay.contains(rangingRoundUsage) {
            problems.append(problem(
                "rangingRoundUsage", .rangingRoundUsage, rangingRoundUsage.description,
                "allowed SS_TWR_DEFERRED (0x01), DS_TWR_DEFERRED (0x02), SS_TWR_NON_DEFERRED (0x03) or "
                    + "DS_TWR_NON_DEFERRED (0x04): this client reads two-way range notifications only"))
        }
        if scheduleMode != .timeScheduled && scheduleMode != .contentionBased {
            problems.append(problem(
                "scheduleMode", .scheduleMode, scheduleMode.description, "allowed CONTENTION_BASED (0x00) or TIME_SCHEDULED (0x01)"))
        }
        let addressLength: Int?
        switch macAddressMode {
        case .short: addressLength = 2
        case .extendedWithShortHeader, .extended: addressLength = 8
        default:
            addressLength = nil
            problems.append(problem(
                "macAddressMode", .macAddressMode, macAddressMode.description,
                "allowed 0 (short addresses), 1 (extended addresses, short header) or 2 (extended addresses)"))
        }
        if let addressLength, deviceMACAddress.length != addressLength {
            problems.append(problem(
                "deviceMACAddress", .deviceMACAddress, deviceMACAddress.description,
                "MAC_ADDRESS_MODE \(macAddressMode.rawValue) needs a \(addressLength)-byte address; "
                    + (addressLength == 2 ? "use a short address such as 0x0001 or MAC_ADDRESS_MODE 2" : "use an extended address or MAC_ADDRESS_MODE 0")))
        }
        problems += checkDestinations(addressLength: addressLength)
        return problems
    }

    private func checkDestinations(addressLength: Int?) -> [FiRaParameterError.Problem] {
        var problems: [FiRaParameterError.Problem] = []
        let list = "[" + destinationMACAddresses.map(\.description).joined(separator: ", ") + "]"
        let count = destinationMACAddresses.count
        switch multiNodeMode {
        case .unicast:
            if count != 1 {
                problems.append(problem(
                    "destinationMACAddresses", .destinationMACAddresses, list,
                    "a UNICAST session has exactly one peer address (give one, or use MULTI_NODE_MODE ONE_TO_MANY)"))
            }
        case .oneToMany:
            if deviceType == .controlee && count != 1 {
                problems.append(problem(
                    "destinationMACAddresses", .destinationMACAddresses, list,
                    "a ONE_TO_MANY controlee has exactly one peer: its controller"))
            } else if count < 1 || count > Self.maximumControlees {
                problems.append(problem(
                    "destinationMACAddresses", .destinationMACAddresses, "\(count) addresses \(list)",
                    "a ONE_TO_MANY controller has 1 to \(Self.maximumControlees) controlees"))
            }
        default:
            problems.append(problem(
                "multiNodeMode", .multiNodeMode, multiNodeMode.description,
                "allowed UNICAST (0x00) or ONE_TO_MANY (0x01)"))
        }
        if let addressLength, let wrong = destinationMACAddresses.first(where: { $0.length != addressLength }) {
            problems.append(problem(
                "destinationMACAddresses", .destinationMACAddresses, list,
                "\(wrong) is \(wrong.length) bytes but MAC_ADDRESS_MODE \(macAddressMode.rawValue) needs \(addressLength)-byte addresses"))
        }
        var seen: Set<UCIMACAddress> = []
        for address in destinationMACAddresses {
            if address == deviceMACAddress {
                problems.append(problem(
                    "destinationMACAddresses", .destinationMACAddresses, list,
                    "\(address) is this device's own address (DEVICE_MAC_ADDRESS); give the peer's"))
            } else if !seen.insert(address).inserted {
                problems.append(problem("destinationMACAddresses", .destinationMACAddresses, list, "\(address) is listed twice"))
            }
        }
        return problems
    }

    private func checkPHY() -> [FiRaParameterError.Problem] {
        var problems: [FiRaParameterError.Problem] = []
        if !Self.validChannels.contains(channel) {
            problems.append(problem("channel", .channelNumber, "\(channel)", "allowed 5, 6, 8, 9, 10, 12, 13 or 14"))
        }
        if Self.bprfPreambleCodeIndices.contains(preambleCodeIndex) {
            if sfdID != 0 && sfdID != 2 {
                problems.append(problem(
                    "sfdID", .sfdID, "\(sfdID)", "preamble code \(preambleCodeIndex) is BPRF, which uses SFD 0 or 2"))
            }
        } else if Self.hprfPreambleCodeIndices.contains(preambleCodeIndex) {
            if !(1...4).contains(sfdID) {
                problems.append(problem(
                    "sfdID", .sfdID, "\(sfdID)", "preamble code \(preambleCodeIndex) is HPRF, which uses SFD 1, 2, 3 or 4"))
            }
        } else {
            problems.append(problem(
                "preambleCodeIndex", .preambleCodeIndex, "\(preambleCodeIndex)", "allowed 9-12 (BPRF) or 25-32 (HPRF)"))
        }
        if rframeConfig != .sp0 && rframeConfig != .sp1 && rframeConfig != .sp3 {
            problems.append(problem("rframeConfig", .rframeConfig, rframeConfig.description, "FiRa uses SP0 (0x00), SP1 (0x01) or SP3 (0x03)"))
        }
        if preambleDuration != .symbols32 && preambleDuration != .symbols64 {
            problems.append(problem(
                "preambleDuration", .preambleDuration, preambleDuration.description, "allowed 0 (32 symbols) or 1 (64 symbols)"))
        }
        if stsConfig.rawValue > UCISTSConfig.provisionedSTSIndividualKey.rawValue {
            problems.append(problem(
                "stsConfig", .stsConfig, stsConfig.description,
                "allowed 0 (static), 1 (dynamic), 2 (dynamic, individual key), 3 (provisioned) or 4 (provisioned, individual key)"))
        }
        if stsConfig == .staticSTS && staticSTSIV.count != 6 {
            problems.append(problem(
                "staticSTSIV", .staticSTSIV, "\(staticSTSIV.count) bytes", "a static STS IV has exactly 6 bytes"))
        }
        if let stsLength, stsLength.rawValue > UCISTSLength.symbols128.rawValue {
            problems.append(problem("stsLength", .stsLength, stsLength.description, "allowed 0 (32), 1 (64) or 2 (128 symbols)"))
        }
        if let stsSegmentCount, stsSegmentCount > 4 {
            problems.append(problem("stsSegmentCount", .numberOfSTSSegments, "\(stsSegmentCount)", "allowed 0 to 4 segments"))
        }
        return problems
    }

    private func checkTiming(version: UCIVersion?) -> [FiRaParameterError.Problem] {
        var problems: [FiRaParameterError.Problem] = []
        if slotDuration == 0 {
            problems.append(problem("slotDuration", .slotDuration, "0 RSTU", "at least 1 RSTU (1 ms = 1200 RSTU; FiRa uses 1200 or 2400)"))
        }
        if slotsPerRangingRound == 0 {
            problems.append(problem("slotsPerRangingRound", .slotsPerRangingRound, "0", "at least 1 slot per ranging round"))
        }
        if rangingInterval == 0 {
            problems.append(problem("rangingInterval", .rangingDuration, "0 ms", "at least 1 ms"))
        } else if rangingRoundDuration > Double(rangingInterval) {
            let round = rangingRoundDuration
            let text = round == Double(Int(round)) ? "\(Int(round)) ms" : "\(round) ms"
            problems.append(problem(
                "rangingInterval", .rangingDuration, "\(rangingInterval) ms",
                "a round of \(slotsPerRangingRound) slots × \(slotDuration) RSTU lasts \(text), longer than the interval; "
                    + "use an interval of at least \(text) or fewer/shorter slots"))
        }
        if let control = rangingRoundControl {
            if !control.contains(.controlMessage) {
                problems.append(problem(
                    "rangingRoundControl", .rangingRoundControl, control.description, "FiRa requires bit 1 (control message) to be set, e.g. 0x03 or 0x06"))
            } else if control.rawValue & 0b0011_1000 != 0 {
                problems.append(problem("rangingRoundControl", .rangingRoundControl, control.description, "bits 3-5 are reserved and must be 0"))
            }
        }
        if case .absolute = initiationTime, let version, !version.usesVersion2Layout {
            problems.append(problem(
                "initiationTime", .uwbInitiationTime, initiationTime?.description ?? "",
                "UCI \(version) has no absolute initiation time; use .afterStart(milliseconds:)"))
        }
        return problems
    }

    private func checkReporting() -> [FiRaParameterError.Problem] {
        var problems: [FiRaParameterError.Problem] = []
        if aoaResultRequest.name == nil {
            problems.append(problem(
                "aoaResultRequest", .aoaResultRequest, aoaResultRequest.description,
                "allowed 0 (off), 1 (azimuth and elevation), 2 (azimuth), 3 (elevation) or 0xF0 (interleaved)"))
        }
        if sessionInfoNotification.rawValue > UCISessionInfoNotificationConfig.proximityAndAoAEdgeTrigger.rawValue {
            problems.append(problem(
                "sessionInfoNotification", .sessionInfoNotificationConfig, sessionInfoNotification.description,
                "allowed 0 (off), 1 (every round) or 2-7 (proximity / AoA triggers)"))
        }
        if let priority = sessionPriority, !(1...100).contains(priority) {
            problems.append(problem("sessionPriority", .sessionPriority, "\(priority)", "allowed 1 to 100 (50 is the FiRa default)"))
        }
        if let report = resultReportConfig, report.rawValue & 0xF0 != 0 {
            problems.append(problem("resultReportConfig", .resultReportConfig, report.description, "bits 4-7 are reserved and must be 0"))
        }
        return problems
    }

    private func checkAdditional(version: UCIVersion) -> [FiRaParameterError.Problem] {
        var problems: [FiRaParameterError.Problem] = []
        let fixed = Set(fieldConfigs(for: version).map(\.id))
        var seen: Set<UCIAppConfigID> = []
        for config in additionalConfigs {
            if fixed.contains(config.id) {
                problems.append(problem(
                    "additionalConfigs", config.id, config.valueDescription,
                    "this parameter is set by a field of FiRaSessionParameters; set the field instead"))
            } else if !seen.insert(config.id).inserted {
                problems.append(problem("additionalConfigs", config.id, config.valueDescription, "the parameter is listed twice"))
            }
        }
        return problems
    }
}
