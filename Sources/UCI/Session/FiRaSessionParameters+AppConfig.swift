extension FiRaSessionParameters {
    /// The validated SESSION_SET_APP_CONFIG parameters for a UWBS of UCI `version`.
    ///
    /// Order (pica applies TLVs in order and needs MAC_ADDRESS_MODE before DEVICE_MAC_ADDRESS and
    /// NUMBER_OF_CONTROLEES before DST_MAC_ADDRESS): DEVICE_TYPE, DEVICE_ROLE,
    /// RANGING_ROUND_USAGE, MULTI_NODE_MODE, SCHEDULE_MODE, CHANNEL_NUMBER, PREAMBLE_CODE_INDEX,
    /// SFD_ID, RFRAME_CONFIG, PREAMBLE_DURATION, STS_CONFIG, [VENDOR_ID, STATIC_STS_IV],
    /// [STS_LENGTH], [NUMBER_OF_STS_SEGMENTS], MAC_ADDRESS_MODE, DEVICE_MAC_ADDRESS,
    /// NUMBER_OF_CONTROLEES, DST_MAC_ADDRESS, SLOT_DURATION, RANGING_DURATION, SLOTS_PER_RR,
    /// [RANGING_ROUND_CONTROL], [HOPPING_MODE], [MAX_RR_RETRY], [UWB_INITIATION_TIME],
    /// [MAX_NUMBER_OF_MEASUREMENTS], [AOA_RESULT_REQ], [SESSION_INFO_NTF_CONFIG],
    /// [RESULT_REPORT_CONFIG], [SESSION_PRIORITY], then ``additionalConfigs``. Bracketed ones
    /// only when set (VENDOR_ID and STATIC_STS_IV only with static STS). HOPPING_MODE,
    /// MAX_RR_RETRY, AOA_RESULT_REQ and SESSION_INFO_NTF_CONFIG are sent only when they differ
    /// from FiRa's default (0, 0, 1, 1): a firmware that does not implement one of them may
    /// refuse it even with the value we want, and leaving it out gives the same session. Any
    /// identifier in ``omittedConfigs`` is left out as well.
    ///
    /// UCI 1.1 vs 2.0: UWB_INITIATION_TIME is 4 bytes (milliseconds after start) in 1.1 and
    /// 8 bytes in 2.0 (a relative time in milliseconds, as AOSP sends it, or an absolute
    /// UWBS time in microseconds).
    /// - Throws: ``FiRaParameterError`` from ``validate(for:)``.
    public func appConfigs(for version: UCIVersion) throws(FiRaParameterError) -> [UCIAppConfig] {
        try validate(for: version)
        let configs = fieldConfigs(for: version) + additionalConfigs
        return omittedConfigs.isEmpty ? configs : configs.filter { !omittedConfigs.contains($0.id) }
    }

    /// The parameters the fields set, in pica's order, without validation.
    func fieldConfigs(for version: UCIVersion) -> [UCIAppConfig] {
        var configs: [UCIAppConfig] = [
            .deviceType(deviceType),
            .deviceRole(deviceRole),
            .rangingRoundUsage(rangingRoundUsage),
            .multiNodeMode(multiNodeMode),
            .scheduleMode(scheduleMode),
            .channelNumber(channel),
            .preambleCodeIndex(preambleCodeIndex),
            .sfdID(sfdID),
            .rframeConfig(rframeConfig),
            .preambleDuration(preambleDuration),
            .stsConfig(stsConfig),
        ]
        if stsConfig == .staticSTS {
            configs.append(.vendorID(vendorID))
            configs.append(.staticSTSIV(staticSTSIV))
        }
        if let stsLength { configs.append(.stsLength(stsLength)) }
        if let stsSegmentCount { configs.append(.other(id: .numberOfSTSSegments, value: [stsSegmentCount])) }
        configs += [
            .macAddressMode(macAddressMode),
            .deviceMACAddress(deviceMACAddress),
            .numberOfControlees(UInt8(clamping: destinationMACAddresses.count)),
            .destinationMACAddresses(destinationMACAddresses),
            .slotDuration(rstu: slotDuration),
            .rangingDuration(milliseconds: rangingInterval),
            .slotsPerRangingRound(slotsPerRangingRound),
        ]
        if let rangingRoundControl { configs.append(.rangingRoundControl(rangingRoundControl)) }
        if hoppingMode != 0 { configs.append(.hoppingMode(hoppingMode)) }
        if maxRangingRoundRetries != 0 { configs.append(.maxRangingRoundRetries(maxRangingRoundRetries)) }
        if let initiationTime { configs.append(Self.initiationTimeConfig(initiationTime, version: version)) }
        if let maxNumberOfMeasurements { configs.append(.maxNumberOfMeasurements(maxNumberOfMeasurements)) }
        if aoaResultRequest != .enabled { configs.append(.aoaResultRequest(aoaResultRequest)) }
        if sessionInfoNotification != .enabled { configs.append(.sessionInfoNotificationConfig(sessionInfoNotification)) }
        if let resultReportConfig { configs.append(.resultReportConfig(resultReportConfig)) }
        if let sessionPriority { configs.append(.sessionPriority(sessionPriority)) }
        return configs
    }

    /// UWB_INITIATION_TIME in the width `version` uses.
    static func initiationTimeConfig(_ time: FiRaInitiationTime, version: UCIVersion) -> UCIAppConfig {
        switch time {
        case .afterStart(let milliseconds):
            guard version.usesVersion2Layout else { return .uwbInitiationTime(.relative(milliseconds: milliseconds)) }
            // UCI 2.0 widened the field to 8 bytes; a relative time keeps its milliseconds
            // (AOSP's FiRa encoder does the same).
            let value = UInt64(milliseconds)
            return .other(id: .uwbInitiationTime, value: (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) })
        case .absolute(let microseconds):
            return .uwbInitiationTime(.absolute(microseconds: microseconds))
        }
    }
}
