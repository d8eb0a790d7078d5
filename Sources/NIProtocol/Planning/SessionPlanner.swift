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
/// | timing | the accessory's v2.0 request when usable, else 6 × 3600 RSTU and an interval from the preferred update rate (``rangingInterval(for:)``) |
/// | STS IV | 6 random bytes; vendor ID 0x004C |
/// | host address | random short address, not the accessory's, not 0x0000 / 0xFFFF |
/// | layout | the accessory's UWB config layout: 1.0 → 28-byte shareable data, 1.1 → 30, 2.0 → 35 (hopping off: NI does not hop) |
/// | role | opposite to the accessory's: responder (0) → host controller + initiator |
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
    ///   - device: the local kit (channels it supports).
    ///   - excluding: session IDs already in use on the kit.
    ///   - generator: the source of the random session ID, preamble, STS IV and address.
    /// - Throws: ``SessionPlanningError`` when no channel or preamble fits, or an option is out
    ///   of range.
    public func plan(
        for configuration: AccessoryConfigurationData, device: LocalUWBDevice, excluding: Set<UInt32> = [],
        using generator: inout some RandomNumberGenerator
    ) throws(SessionPlanningError) -> SessionPlan {
        try validateOptions()
        let uwb = configuration.uwbConfiguration
        let channel = try chooseChannel(device)
        let preamble = try choosePreamble(&generator)
        let sessionID = chooseSessionID(excluding: excluding, &generator)
        let hostAddress = chooseHostAddress(avoiding: uwb.deviceAddress, &generator)
        let iv = options.staticSTSIV ?? (0..<6).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let timing = self.timing(for: configuration)

        let drift: UInt16? = uwb.version >= .v1_1 ? options.clockDriftPPM : nil
        let hopping: ShareableConfigurationData.HoppingFields? = uwb.version >= .v2_0 ? .init(hoppingMode: 0) : nil
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
        return SessionPlan(accessory: .apple(configuration), shared: .apple(shareable), hostParameters: host)
    }

    /// Plans with the system's random generator.
    /// - Throws: see ``plan(for:device:excluding:using:)``.
    public func plan(
        for configuration: AccessoryConfigurationData, device: LocalUWBDevice, excluding: Set<UInt32> = []
    ) throws(SessionPlanningError) -> SessionPlan {
        var generator = SystemRandomNumberGenerator()
        return try plan(for: configuration, device: device, excluding: excluding, using: &generator)
    }

    /// The timing for `configuration`: the v2.0 request when every requested value is non-zero,
    /// the slots fit FiRa's 1-255 and the round fits the interval; otherwise the options' slots
    /// and slot duration and the interval from ``SessionPlanningOptions/rangingIntervalMS`` or
    /// the preferred update rate.
    public func timing(for configuration: AccessoryConfigurationData) -> (slots: UInt16, slotDuration: UInt16, interval: UInt16) {
        if let request = configuration.uwbConfiguration.requestedParameters, options.rangingIntervalMS == nil,
           request.slotsPerRound >= 1, request.slotsPerRound <= 255, request.slotDurationRSTU >= 1,
           request.rangingIntervalMS >= 1,
           Int(request.slotsPerRound) * Int(request.slotDurationRSTU) <= Int(request.rangingIntervalMS) * 1200
        {
            return (request.slotsPerRound, request.slotDurationRSTU, request.rangingIntervalMS)
        }
        let interval = options.rangingIntervalMS ?? Self.rangingInterval(for: configuration.preferredUpdateRate)
        return (options.slotsPerRound, options.slotDurationRSTU, interval)
    }

    // MARK: Android dialect

    /// Plans a session for an Android-dialect accessory (after 0xA5): the first of
    /// ``SessionPlanningOptions/androidConfigIDs`` the accessory supports; the accessory is
    /// made controlee when it can be (the host controls), else controller.
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
        let host = NIFiRaDerivation.hostParameters(
            phone: phone, accessory: configuration, rangingIntervalMS: options.androidRangingIntervalMS)
        return SessionPlan(accessory: .android(configuration), shared: .android(phone), hostParameters: host)
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
