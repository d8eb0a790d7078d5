public import UCI

/// The FiRa parameters both sides of an NI session derive from the configuration the host sends:
/// pure functions, one per side and dialect. The host's side is what ``SessionPlanner`` uses;
/// the accessory's side is what an accessory's firmware does (Qorvo's rules, specs/reference/ni-accessory-protocol.md §5),
/// used by the virtual accessory and by tests that check the two are complementary (same
/// session, channel, preamble, STS, timing; opposite type and role; swapped addresses).
///
/// Fixed for both (Qorvo `fira_niq.c`, AOSP `CONFIG_UNICAST_DS_TWR`): DS-TWR deferred, unicast,
/// time-scheduled, static STS, SP3, SFD 2, 64-symbol preamble, MAX_RR_RETRY 0, short addresses.
public enum NIFiRaDerivation {
    /// Android dialect: the vendor ID NXP's Android stack uses (`08 07` on the wire; NXP's
    /// `UwbApi_ConfigureData_Android`).
    public static let androidVendorID: UInt16 = 0x0708
    /// Android dialect: NXP's default static STS IV.
    public static let androidStaticSTSIV: [UInt8] = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06]

    // MARK: Apple dialect

    /// The host's parameters for Apple shareable data: the role opposite to the accessory's
    /// (accessory responder → host controller + initiator), own address = the shareable's phone
    /// address, destination = the accessory's address; the shareable's channel, preamble,
    /// slots, slot duration, interval, round control and (v2.0) hopping mode; vendor ID 0x004C
    /// and the STS IV in `keyByteOrder`; UWB_INITIATION_TIME `initiationTimeMS` (nil: none).
    public static func hostParameters(
        shareable: ShareableConfigurationData, accessory: UWBConfigurationData, keyByteOrder: UWBKeyByteOrder,
        initiationTimeMS: UInt32? = 5
    ) -> FiRaSessionParameters {
        let accessoryIsController = accessory.rangingRole == .initiator
        var p = base(
            own: shareable.phoneAddress, peer: accessory.deviceAddress, controller: !accessoryIsController,
            channel: shareable.channel, preamble: shareable.preambleCodeIndex, interval: shareable.rangingIntervalMS)
        p.slotDuration = shareable.slotDurationRSTU
        p.slotsPerRangingRound = UInt8(clamping: shareable.slotsPerRound)
        p.rangingRoundControl = UCIRangingRoundControl(rawValue: shareable.rangingRoundControl)
        p.hoppingMode = shareable.hopping?.hoppingMode ?? 0
        let key = keyByteOrder.uciValues(iv: shareable.staticSTSIV)
        p.vendorID = key.vendorID
        p.staticSTSIV = key.staticSTSIV
        p.initiationTime = initiationTimeMS.map { .afterStart(milliseconds: $0) }
        return p
    }

    /// The accessory's parameters for Apple shareable data, as Qorvo's firmware derives them
    /// (specs/reference/ni-accessory-protocol.md §5): channel [12], preamble [11], session [7..10], slot duration [15..16],
    /// slots per round `1 + round / slot` (Qorvo's "round duration slots", so 7 for TV-2's 6),
    /// ranging interval [17..18], ranging round control as sent and time-of-flight reports only
    /// when it is 0x03, destination = the phone's address [26..27], source = the accessory's own
    /// address, vendor 0x004C + the STS IV in `keyByteOrder`, 1 STS segment, UWB initiation
    /// time 5 ms; role 1 (initiator) → controller + initiator, otherwise controlee + responder.
    /// Qorvo accepts only v1.1 and never hops; for v2.0 shareable data this follows an AOSP-based
    /// accessory instead and hops as the shareable's hopping mode says.
    public static func accessoryParameters(
        shareable: ShareableConfigurationData, accessory: UWBConfigurationData, keyByteOrder: UWBKeyByteOrder
    ) -> FiRaSessionParameters {
        let isController = accessory.rangingRole == .initiator
        var p = base(
            own: accessory.deviceAddress, peer: shareable.phoneAddress, controller: isController,
            channel: shareable.channel, preamble: shareable.preambleCodeIndex, interval: shareable.rangingIntervalMS)
        p.slotDuration = shareable.slotDurationRSTU
        // Qorvo: round = slot × slots, then round_duration_slots = 1 + round / slot.
        p.slotsPerRangingRound = UInt8(clamping: 1 + Int(shareable.slotsPerRound))
        p.rangingRoundControl = UCIRangingRoundControl(rawValue: shareable.rangingRoundControl)
        p.resultReportConfig = shareable.rangingRoundControl == 0x03 ? .timeOfFlight : []
        p.hoppingMode = shareable.hopping?.hoppingMode ?? 0
        let key = keyByteOrder.uciValues(iv: shareable.staticSTSIV)
        p.vendorID = key.vendorID
        p.staticSTSIV = key.staticSTSIV
        p.stsSegmentCount = 1
        p.initiationTime = .afterStart(milliseconds: 5)
        return p
    }

    // MARK: Android dialect

    /// The host's parameters for Android phone config data: the role opposite to the one the
    /// phone config gives the accessory, `profile`'s FiRa parameters (NXP's table for the
    /// config ID), `rangingIntervalMS` (nil: the profile's), NXP's vendor ID and STS IV.
    public static func hostParameters(
        phone: UWBPhoneConfigData, accessory: UWBDeviceConfigData, profile: AndroidConfigProfile,
        rangingIntervalMS: UInt16? = nil
    ) -> FiRaSessionParameters {
        let accessoryIsController = phone.accessoryRole.contains(.controller)
        return androidParameters(
            own: phone.phoneAddress, peer: accessory.deviceAddress, controller: !accessoryIsController, phone: phone,
            profile: profile, interval: rangingIntervalMS ?? profile.rangingIntervalMS)
    }

    /// The accessory's parameters for Android phone config data, as NXP's
    /// `UwbApi_ConfigureData_Android` sets them: the role the phone assigned, `profile`'s
    /// parameters, its own MAC (the bytes it sent, programmed unchanged) and the phone's as
    /// DST_MAC_ADDRESS.
    public static func accessoryParameters(
        phone: UWBPhoneConfigData, accessory: UWBDeviceConfigData, profile: AndroidConfigProfile,
        rangingIntervalMS: UInt16? = nil
    ) -> FiRaSessionParameters {
        let isController = phone.accessoryRole.contains(.controller)
        return androidParameters(
            own: accessory.deviceAddress, peer: phone.phoneAddress, controller: isController, phone: phone,
            profile: profile, interval: rangingIntervalMS ?? profile.rangingIntervalMS)
    }

    private static func androidParameters(
        own: UInt16, peer: UInt16, controller: Bool, phone: UWBPhoneConfigData, profile: AndroidConfigProfile,
        interval: UInt16
    ) -> FiRaSessionParameters {
        var p = base(
            own: own, peer: peer, controller: controller, channel: phone.channel, preamble: phone.preambleCodeIndex,
            interval: interval)
        p.multiNodeMode = profile.multiNodeMode
        p.aoaResultRequest = profile.reportsAngles ? .enabled : .disabled
        p.slotDuration = profile.slotDurationRSTU
        p.slotsPerRangingRound = profile.slotsPerRound
        p.vendorID = androidVendorID
        p.staticSTSIV = androidStaticSTSIV
        return p
    }

    // MARK: Common

    private static func base(
        own: UInt16, peer: UInt16, controller: Bool, channel: UInt8, preamble: UInt8, interval: UInt16
    ) -> FiRaSessionParameters {
        var p = FiRaSessionParameters(
            deviceMACAddress: .short(own), destinationMACAddresses: [.short(peer)],
            deviceType: controller ? .controller : .controlee, deviceRole: controller ? .initiator : .responder,
            channel: channel, preambleCodeIndex: preamble, rangingInterval: UInt32(interval))
        p.rangingRoundUsage = .dsTWRDeferred
        p.multiNodeMode = .unicast
        p.scheduleMode = .timeScheduled
        p.stsConfig = .staticSTS
        p.rframeConfig = .sp3
        p.sfdID = 2
        p.preambleDuration = .symbols64
        p.hoppingMode = 0
        p.maxRangingRoundRetries = 0
        return p
    }
}
