public import UCI

/// The FiRa parameters of one Android UWB config ID (the `profile_id` byte of the 14-byte phone
/// configuration): what an NXP accessory programs for it, so the host programs the same.
///
/// NXP's accessory firmware (`UwbApi_ConfigureData_Android`, UWBIOT SDK v04.06.05, e.g. the copy
/// in L-Red/UWBIOT_SR150_LiamRoth `libs/uwb-iot/uwb_api/Api/SR1XX/UwbApi_Proprietary.c`) sets per
/// config ID:
///
/// | Config ID | Multi-node mode | Interval | AOA_RESULT_REQ | Slot | Slots per round |
/// |---|---|---|---|---|---|
/// | 1 | unicast | 240 ms | on | 2400 RSTU | 10 |
/// | 2 | one-to-many | 200 ms | on | 2400 RSTU | 10 |
/// | 3 | unicast | 240 ms | off | 2400 RSTU | 10 |
///
/// and, for all, static STS with IV `01 02 03 04 05 06`, VENDOR_ID `08 07`, DS-TWR deferred,
/// time-scheduled, one controlee. Its older SDK (v04.06.00, e.g. the copy in
/// Wang860503/nrf52840_shell) implements config ID 1 only, with **6** slots per round (as
/// androidx's `CONFIG_UNICAST_DS_TWR`), although it announces IDs 1-3 as well.
public struct AndroidConfigProfile: Sendable, Hashable {
    /// The config ID (androidx `RangingParameters.CONFIG_*`).
    public var configID: UInt8
    /// Unicast (IDs 1, 3) or one-to-many (ID 2).
    public var multiNodeMode: UCIMultiNodeMode
    /// RANGING_DURATION, ms.
    public var rangingIntervalMS: UInt16
    /// AOA_RESULT_REQ on (IDs 1, 2) or off (ID 3).
    public var reportsAngles: Bool
    /// SLOT_DURATION, RSTU.
    public var slotDurationRSTU: UInt16
    /// SLOTS_PER_RR.
    public var slotsPerRound: UInt8

    /// Creates a profile.
    public init(
        configID: UInt8, multiNodeMode: UCIMultiNodeMode, rangingIntervalMS: UInt16, reportsAngles: Bool,
        slotDurationRSTU: UInt16 = 2400, slotsPerRound: UInt8
    ) {
        self.configID = configID
        self.multiNodeMode = multiNodeMode
        self.rangingIntervalMS = rangingIntervalMS
        self.reportsAngles = reportsAngles
        self.slotDurationRSTU = slotDurationRSTU
        self.slotsPerRound = slotsPerRound
    }

    /// The config IDs NXP's accessories implement: 1, 2, 3.
    public static let nxpConfigIDs: [UInt8] = [1, 2, 3]
    /// Slots per round of NXP's newer table (config IDs 1-3).
    public static let nxpSlotsPerRound: UInt8 = 10
    /// Slots per round of NXP's older table (config ID 1 only) and androidx's
    /// `CONFIG_UNICAST_DS_TWR`.
    public static let nxpLegacySlotsPerRound: UInt8 = 6

    /// NXP's parameters for `configID` (1-3, see the table), with `slotsPerRound`; `nil` for
    /// any other ID.
    public static func nxp(configID: UInt8, slotsPerRound: UInt8 = nxpSlotsPerRound) -> AndroidConfigProfile? {
        switch configID {
        case 1:
            AndroidConfigProfile(configID: 1, multiNodeMode: .unicast, rangingIntervalMS: 240, reportsAngles: true, slotsPerRound: slotsPerRound)
        case 2:
            AndroidConfigProfile(configID: 2, multiNodeMode: .oneToMany, rangingIntervalMS: 200, reportsAngles: true, slotsPerRound: slotsPerRound)
        case 3:
            AndroidConfigProfile(configID: 3, multiNodeMode: .unicast, rangingIntervalMS: 240, reportsAngles: false, slotsPerRound: slotsPerRound)
        default:
            nil
        }
    }

    /// The slots per round an accessory's table most likely uses, from what it offers: 6 when
    /// it offers config ID 1 only (NXP's older table), 10 when it offers ID 2 or 3 as well (the
    /// newer one). Its version cannot tell the two SDKs apart (both announce middleware 4.6.0
    /// and IDs 1-3); ``SessionPlanningOptions/androidSlotsPerRound`` overrides the guess for an
    /// accessory on the older SDK.
    public static func nxpSlotsPerRound(for accessory: UWBDeviceConfigData) -> UInt8 {
        accessory.supports(configID: 2) || accessory.supports(configID: 3) ? nxpSlotsPerRound : nxpLegacySlotsPerRound
    }
}
