import UCI

/// What the virtual UWBS accepts in SESSION_SET_APP_CONFIG: value ranges per parameter, and the
/// rules that tie parameters together. A value the radio cannot do is INVALID_RANGE (0x05); an
/// unknown parameter or a value of the wrong form is INVALID_PARAM (0x04).
enum AppConfigRules {
    /// The status for one parameter's value, `nil` if it is accepted.
    static func check(_ config: UCIAppConfig, version: UCIVersion, channels: [UInt8]) -> UCIStatus? {
        func range(_ ok: Bool) -> UCIStatus? { ok ? nil : .invalidRange }
        switch config {
        case .deviceType(let v): return range(v.rawValue <= 1)
        case .rangingRoundUsage(let v): return range((1...4).contains(v.rawValue))
        case .stsConfig(let v): return range(v.rawValue <= 4)
        case .multiNodeMode(let v): return range(v.rawValue <= 1)
        case .channelNumber(let v): return range(channels.contains(v))
        case .numberOfControlees(let v): return range((1...8).contains(v))
        case .deviceMACAddress: return nil
        case .destinationMACAddresses(let v): return range(v.count <= 8)
        case .slotDuration(let v): return range(v >= 1)
        case .rangingDuration(let v): return range(v >= 1)
        case .macFCSType(let v): return range(v.rawValue <= 1)
        case .rangingRoundControl: return nil
        case .aoaResultRequest(let v): return range(v.rawValue <= 3)
        case .sessionInfoNotificationConfig(let v): return range(v.rawValue <= 7)
        case .nearProximity, .farProximity: return nil
        case .deviceRole(let v): return range(v.rawValue <= 1)
        case .rframeConfig(let v): return range([0, 1, 3].contains(v.rawValue))
        case .rssiReporting: return nil
        case .preambleCodeIndex(let v): return range((9...12).contains(v) || (25...32).contains(v))
        case .sfdID(let v): return range(v <= 4)
        case .preambleDuration(let v): return range(v.rawValue <= 1)
        case .slotsPerRangingRound(let v): return range(v >= 1)
        case .aoaBounds(let b):
            return range(
                b.minimumAzimuth.rawValue <= b.maximumAzimuth.rawValue
                    && b.minimumElevation.rawValue <= b.maximumElevation.rawValue)
        case .scheduleMode(let v): return range(v.rawValue <= 1)
        case .sessionPriority(let v): return range((1...100).contains(v))
        case .macAddressMode(let v): return range(v.rawValue <= 2)
        case .vendorID, .staticSTSIV, .maxRangingRoundRetries, .hoppingMode, .resultReportConfig, .maxNumberOfMeasurements:
            return nil
        case .uwbInitiationTime(.relative): return version.usesVersion2Layout ? .invalidParameter : nil
        case .uwbInitiationTime(.absolute): return version.usesVersion2Layout ? nil : .invalidParameter
        case .stsLength(let v): return range(v.rawValue <= 2)
        case .other(let id, _): return id.name != nil || id.isVendorSpecific ? nil : .invalidParameter
        }
    }

    /// A rule the whole configuration breaks, with the parameters involved (the first one that
    /// the command set is blamed) and the status; `nil` if it is consistent.
    static func inconsistency(in c: VirtualSessionConfiguration) -> (ids: [UCIAppConfigID], status: UCIStatus)? {
        let size = c.macAddressMode.addressLength
        if let address = c.deviceMACAddress, address.length != size {
            return ([.deviceMACAddress, .macAddressMode], .invalidParameter)
        }
        let destinations = c.destinationAddresses
        if destinations.contains(where: { $0.length != size }) {
            return ([.destinationMACAddresses, .macAddressMode], .invalidParameter)
        }
        if c.multiNodeMode == .unicast, destinations.count > 1 {
            return ([.destinationMACAddresses, .multiNodeMode], .invalidParameter)
        }
        if c.deviceType == .controller, let n = c.numberOfControlees, !destinations.isEmpty, destinations.count != Int(n) {
            return ([.destinationMACAddresses, .numberOfControlees], .invalidParameter)
        }
        if c.rangingInterval < c.minimumRangingInterval {
            return ([.rangingDuration, .slotsPerRangingRound, .slotDuration], .invalidRange)
        }
        return nil
    }
}
