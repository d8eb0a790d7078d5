import UCI

extension VirtualUWBS {
    /// CORE_GET_DEVICE_INFO: UCI 1.1 devices report MAC/PHY 1.1 and test 1.0 (as Qorvo's
    /// DWM3001CDK firmware declares 1.1); UCI 2.0 devices report MAC/PHY 1.3 and test 1.1.
    var deviceInfo: UCIDeviceInfo {
        if version.usesVersion2Layout {
            return UCIDeviceInfo(
                uciVersion: .v2_0, macVersion: UCIVersion(major: 1, minor: 3), phyVersion: UCIVersion(major: 1, minor: 3),
                testVersion: UCIVersion(major: 1, minor: 1), vendorInfo: configuration.vendorInfo)
        }
        return UCIDeviceInfo(
            uciVersion: .v1_1, macVersion: .v1_1, phyVersion: .v1_1, testVersion: UCIVersion(major: 1, minor: 0),
            vendorInfo: configuration.vendorInfo)
    }

    /// CORE_GET_CAPS_INFO, in the numbering of the device's UCI version.
    var capabilities: [UCICapability] {
        let channelNumbers: [UInt8] = [5, 6, 8, 9, 10, 12, 13, 14]
        var channelMask: UInt8 = 0
        for (bit, channel) in channelNumbers.enumerated() where configuration.supportedChannels.contains(channel) {
            channelMask |= 1 << UInt8(bit)
        }
        let aoa: UCIAoACapability = configuration.measuresAngles ? [.azimuth90, .elevation, .figureOfMerit] : []
        let entries: [(UCICapabilityKind, [UInt8])] = [
            (.maxMessageSize, [0x00, 0x04]),  // 1024 bytes
            (.maxDataPacketPayloadSize, [0xFF, 0x00]),  // 255 bytes
            (.phyVersionRange, [1, 1, 1, 3]),
            (.macVersionRange, [1, 1, 1, 3]),
            (.deviceTypes, [0b11]),  // controlee, controller
            (.deviceRoles, [0b11]),  // responder, initiator
            (.rangingMethods, [0b1_1110]),  // SS-TWR and DS-TWR, deferred and not
            (.stsConfigs, [0b1_1111]),
            (.multiNodeModes, [0b11]),  // unicast, one-to-many
            (.scheduledModes, [0b11]),  // contention-based, time-scheduled
            (.hoppingMode, [1]),  // ranging round hopping when HOPPING_MODE asks (the radio model)
            (.blockStriding, [0]),
            (.uwbInitiationTime, [1]),
            (.channels, [channelMask]),
            (.rframeConfigs, [0b1011]),  // SP0, SP1, SP3
            (.aoa, [aoa.rawValue]),
            (.extendedMACAddress, [1]),
        ]
        return entries.compactMap { kind, value in try? UCICapability(kind, value: value, version: version) }
            .sorted { $0.id < $1.id }
    }
}
