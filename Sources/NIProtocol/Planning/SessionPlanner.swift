import UCI

/// Plans an NI session the way an iPhone does when an app runs an
/// `NINearbyAccessoryConfiguration`: from the accessory's configuration data and what the
/// local kit can do, it chooses the session and builds both the configuration sent to the
/// accessory (0x0B) and the host's own FiRa parameters. Pure: no I/O; randomness comes from the
/// generator passed in, so a seeded generator gives a reproducible plan.
///
/// | Choice | Rule |
/// |---|---|
/// | session ID | random, non-zero, not among the sessions already open (`excluding`) |
/// | channel | the first of ``SessionPlanningOptions/channels`` (default 9, 5) the kit supports |
/// | preamble | random among ``SessionPlanningOptions/preambleCodeIndices`` that NI accepts (9-12) |
/// | timing | the accessory's v2.0 request when usable, else 6 × 3600 RSTU and an interval from the preferred update rate (``rangingInterval(for:)``); a fixed interval keeps the v2.0 slot duration |
/// | STS IV | 6 random bytes; vendor ID 0x004C |
/// | host address | random short address, not the accessory's, not 0x0000 / 0xFFFF |
/// | layout | the accessory's UWB config layout: 1.0 → 28-byte shareable data, 1.1 → 30, 2.0 → 35 with the hopping mode the accessory asks for |
/// | role | opposite to the accessory's: responder (0) → host controller + initiator; other roles cannot range in NI and are refused |
public struct SessionPlanner: Sendable {
    /// The options.
    public var options: SessionPlanningOptions

    /// Creates a planner.
    public init(options: SessionPlanningOptions = SessionPlanningOptions()) {
        self.options = options
    }

    /// Ranging interval for an automatic update rate: 198 ms, what iOS sent in TV-2.
    public static let automaticIntervalMS: UInt16 = 198
    /// Ranging interval for `userInteractive` (about 5.5 Hz): 182 ms.
    public static let userInteractiveIntervalMS: UInt16 = 182
    /// Ranging interval for `infrequent` (about 1.3 Hz): 769 ms.
    public static let infrequentIntervalMS: UInt16 = 769

    /// The ranging interval, ms, for an accessory's preferred update rate (ignoring v2.0
    /// requests and the ``SessionPlanningOptions/rangingIntervalMS`` override): automatic and
    /// unknown values 198, userInteractive 182, infrequent 769.
    public static func rangingInterval(for rate: AccessoryConfigurationData.PreferredUpdateRate) -> UInt16 {
        switch rate {
        case .userInteractive: userInteractiveIntervalMS
        case .infrequent: infrequentIntervalMS
        default: automaticIntervalMS
        }
    }

    // MARK: Apple dialect

    /// Plans a session for an accessory that sent `configuration` (Apple dialect).
    /// - Parameters:
    ///   - configuration: the accessory's configuration data (0x01's payload).
    ///   - device: the local kit (channels it supports).
    ///   - excluding: session IDs already in use on the kit.
    ///   - generator: the source of the random session ID, preamble, STS IV and address.
    /// - Throws: ``SessionPlanningError`` when no channel or preamble fits, an option is out
    ///   of range, or the accessory announces a role other than responder or initiator.
    public func plan(
        for configuration: AccessoryConfigurationData, device: LocalUWBDevice, excluding: Set<UInt32> = [],
        using generator: inout some RandomNumberGenerator
    ) throws(SessionPlanningError) -> SessionPlan {
        try validateOptions()
        let uwb = configuration.uwbConfiguration
        guard uwb.rangingRole.isTwoWay else { throw SessionPlanningError(.unusableRole(uwb.rangingRole)) }
        let channel = try chooseChannel(device)
        let preamble = try choosePreamble(&generator)
        let sessionID = chooseSessionID(excluding: excluding, &generator)
        let hostAddress = chooseHostAddress(avoiding: uwb.deviceAddress, &generator)
        let iv = options.staticSTSIV ?? (0..<6).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let timing = self.timing(for: configuration)

        let drift: UInt16? = uwb.version >= .v1_1 ? options.clockDriftPPM : nil
        // v2.0: honour the hopping mode the accessory asks for (AOSP-based accessories ask for
        // hopping and range as androidx's CONFIG_UNICAST_DS_TWR, which hops).
        let hopping: ShareableConfigurationData.HoppingFields? = uwb.requestedParameters.map {
            .init(hoppingMode: $0.hoppingMode)
        }
        let shareable: ShareableConfigurationData
        do {
            shareable = try ShareableConfigurationData(
                countryCode: options.countryCode, sessionID: sessionID, preambleCodeIndex: preamble, channel: channel,
                slotsPerRound: timing.slots, slotDurationRSTU: timing.slotDuration, rangingIntervalMS: timing.interval,
                rangingRoundControl: options.rangingRoundControl, staticSTSIV: iv, phoneAddress: hostAddress,
                phoneMaxClockDriftPPM: drift, hopping: hopping)
        } catch {
            throw SessionPlanningError(.encoding(error))
        }
        let host = NIFiRaDerivation.hostParameters(
            shareable: shareable, accessory: uwb, keyByteOrder: options.keyByteOrder,
            initiationTimeMS: options.initiationTimeMS)
        return SessionPlan(accessory: .apple(configuration), shared: .apple(shareable), hostParameters: device.adapt(host))
    }

    /// Plans with the system's random generator.
    /// - Throws: see ``plan(for:device:excluding:using:)-(AccessoryConfigurationData,_,_,_)``.
    public func plan(
        for configuration: AccessoryConfigurationData, device: LocalUWBDevice, excluding: Set<UInt32> = []
    ) throws(SessionPlanningError) -> SessionPlan {
        var generator = SystemRandomNumberGenerator()
        return try plan(for: configuration, device: device, excluding: excluding, using: &generator)
    }

    /// The timing for `configuration`:
    /// - no fixed interval: the v2.0 request when every requested value is non-zero, the slots
    ///   fit FiRa's 1-255 and the round fits the interval; else the options' slots and slot
    ///   duration with the interval of the preferred update rate;
    /// - a fixed interval (``SessionPlanningOptions/rangingIntervalMS``): the v2.0 request's
    ///   slot duration and slots when the round fits the fixed interval, its slot duration with
    ///   the options' slots when that fits, else the options'.
    public func timing(for configuration: AccessoryConfigurationData) -> (slots: UInt16, slotDuration: UInt16, interval: UInt16) {
        func fits(_ slots: UInt16, _ slotDuration: UInt16, _ interval: UInt16) -> Bool {
            Int(slots) * Int(slotDuration) <= Int(interval) * 1200
        }
        let request = configuration.uwbConfiguration.requestedParameters.flatMap { request in
            (1...255).contains(request.slotsPerRound) && request.slotDurationRSTU >= 1 ? request : nil
        }
        guard let fixed = options.rangingIntervalMS else {
            if let request, request.rangingIntervalMS >= 1,
               fits(request.slotsPerRound, request.slotDurationRSTU, request.rangingIntervalMS)
            {
                return (request.slotsPerRound, request.slotDurationRSTU, request.rangingIntervalMS)
            }
            return (options.slotsPerRound, options.slotDurationRSTU, Self.rangingInterval(for: configuration.preferredUpdateRate))
        }
        if let request {
            if fits(request.slotsPerRound, request.slotDurationRSTU, fixed) {
                return (request.slotsPerRound, request.slotDurationRSTU, fixed)
            }
            if fits(options.slotsPerRound, request.slotDurationRSTU, fixed) {
                return (options.slotsPerRound, request.slotDurationRSTU, fixed)
            }
        }
        return (options.slotsPerRound, options.slotDurationRSTU, fixed)
    }

    // MARK: Android dialect

    /// Plans a session for an Android-dialect accessory (after 0xA5): the first of
    /// ``SessionPlanningOptions/androidConfigIDs`` the accessory supports, with NXP's parameters
    /// for it (``AndroidConfigProfile``) and the slots per round of the accessory's table
    /// (``AndroidConfigProfile/nxpSlotsPerRound(for:)`` unless
    /// ``SessionPlanningOptions/androidSlotsPerRound`` is set); the accessory is made controlee
    /// when it can be (the host controls), else controller.
    /// - Throws: ``SessionPlanningError`` (no common channel, preamble or config ID).
    public func plan(
        for configuration: UWBDeviceConfigData, device: LocalUWBDevice, excluding: Set<UInt32> = [],
        using generator: inout some RandomNumberGenerator
    ) throws(SessionPlanningError) -> SessionPlan {
        try validateOptions()
        guard let profile = options.androidConfigIDs.first(where: { configuration.supports(configID: Int($0)) }) else {
            throw SessionPlanningError(.noCommonProfile(accessory: configuration.supportedProfileIDs, host: options.androidConfigIDs))
        }
        let channel = try chooseChannel(device)
        let preamble = try choosePreamble(&generator)
        let sessionID = chooseSessionID(excluding: excluding, &generator)
        let hostAddress = chooseHostAddress(avoiding: configuration.deviceAddress, &generator)
        let role: AndroidRangingRoles = configuration.supportedRoles.contains(.controlee) ? .controlee : .controller
        let phone: UWBPhoneConfigData
        do {
            phone = try UWBPhoneConfigData(
                sessionID: sessionID, preambleCodeIndex: preamble, channel: channel, profileID: profile,
                accessoryRole: role, phoneAddress: hostAddress)
        } catch {
            throw SessionPlanningError(.encoding(error))
        }
        let slots = options.androidSlotsPerRound ?? AndroidConfigProfile.nxpSlotsPerRound(for: configuration)
        // validateOptions() checked that every configured ID has a profile.
        let table = AndroidConfigProfile.nxp(configID: profile, slotsPerRound: slots)!
        let host = NIFiRaDerivation.hostParameters(
            phone: phone, accessory: configuration, profile: table, rangingIntervalMS: options.androidRangingIntervalMS)
        return SessionPlan(accessory: .android(configuration), shared: .android(phone), hostParameters: device.adapt(host))
    }

    // MARK: Choices

    private func validateOptions() throws(SessionPlanningError) {
        if !(1...255).contains(options.slotsPerRound) {
            throw SessionPlanningError(.invalidOption(field: "slotsPerRound", value: "\(options.slotsPerRound)", allowed: "1-255"))
        }
        if options.slotDurationRSTU == 0 {
            throw SessionPlanningError(.invalidOption(field: "slotDurationRSTU", value: "0", allowed: "≥ 1 RSTU"))
        }
        if let interval = options.rangingIntervalMS,
           Int(interval) * 1200 < Int(options.slotsPerRound) * Int(options.slotDurationRSTU)
        {
            throw SessionPlanningError(.invalidOption(
                field: "rangingIntervalMS", value: "\(interval)",
                allowed: "at least the ranging round, \(Int(options.slotsPerRound) * Int(options.slotDurationRSTU) / 1200) ms"))
        }
        if let iv = options.staticSTSIV, iv.count != 6 {
            throw SessionPlanningError(.invalidOption(field: "staticSTSIV", value: "\(iv.count) bytes", allowed: "6 bytes"))
        }
        if options.sessionID == 0 {
            throw SessionPlanningError(.invalidOption(field: "sessionID", value: "0", allowed: "1-4294967295"))
        }
        if let id = options.androidConfigIDs.first(where: { AndroidConfigProfile.nxp(configID: $0) == nil }) {
            throw SessionPlanningError(.invalidOption(field: "androidConfigIDs", value: "\(id)", allowed: "1, 2 or 3 (NXP's config IDs)"))
        }
        if let slots = options.androidSlotsPerRound, slots == 0 {
            throw SessionPlanningError(.invalidOption(field: "androidSlotsPerRound", value: "0", allowed: "1-255"))
        }
        if let address = options.hostAddress, address == 0 || address == 0xFFFF {
            throw SessionPlanningError(.invalidOption(field: "hostAddress", value: "\(address)", allowed: "0x0001-0xFFFE"))
        }
    }

    private func chooseChannel(_ device: LocalUWBDevice) throws(SessionPlanningError) -> UInt8 {
        let supported = device.channels ?? ShareableConfigurationData.allowedChannels
        let wanted = options.channels.filter { ShareableConfigurationData.allowedChannels.contains($0) }
        guard let channel = wanted.first(where: supported.contains) else {
            throw SessionPlanningError(.noCommonChannel(wanted: options.channels, supported: supported))
        }
        return channel
    }

    private func choosePreamble(_ generator: inout some RandomNumberGenerator) throws(SessionPlanningError) -> UInt8 {
        let usable = options.preambleCodeIndices.filter { ShareableConfigurationData.allowedPreambleCodeIndices.contains($0) }
        guard !usable.isEmpty else { throw SessionPlanningError(.noPreamble(options.preambleCodeIndices)) }
        return usable[Int.random(in: 0..<usable.count, using: &generator)]
    }

    private func chooseSessionID(excluding: Set<UInt32>, _ generator: inout some RandomNumberGenerator) -> UInt32 {
        if let fixed = options.sessionID { return fixed }
        while true {
            let id = UInt32.random(in: 1...UInt32.max, using: &generator)
            if !excluding.contains(id) { return id }
        }
    }

    private func chooseHostAddress(avoiding accessory: UInt16, _ generator: inout some RandomNumberGenerator) -> UInt16 {
        if let fixed = options.hostAddress { return fixed }
        while true {
            let address = UInt16.random(in: 0x0001...0xFFFE, using: &generator)
            if address != accessory { return address }
        }
    }
}
