public import UCI

/// A built-in virtual peer: a device inside the world whose session is configured and ACTIVE
/// from the start, so a single host ranges with it (`nearby sim uwbs --peer ...`,
/// ``VirtualUWBSWorld/addPeer(_:placement:)``).
///
/// By default it is the controlee and responder of a unicast DS-TWR session, the counterpart of
/// a host that is controller and initiator. It never stops on its own (MAX_RR_RETRY 0).
public struct VirtualPeer: Sendable, Hashable, CustomStringConvertible {
    /// The session ID it ranges in.
    public var sessionID: UInt32
    /// Its DEVICE_MAC_ADDRESS (short or extended; extended selects MAC_ADDRESS_MODE 2).
    public var address: UCIMACAddress
    /// The host's address: its DST_MAC_ADDRESS.
    public var peerAddress: UCIMACAddress
    /// CHANNEL_NUMBER.
    public var channel: UInt8
    /// PREAMBLE_CODE_INDEX.
    public var preambleCodeIndex: UInt8
    /// DEVICE_TYPE.
    public var deviceType: UCIDeviceType
    /// DEVICE_ROLE.
    public var deviceRole: UCIDeviceRole
    /// RANGING_DURATION, milliseconds.
    public var rangingInterval: UInt32
    /// The scenario whose accessory trajectory it follows; `nil` uses the world's.
    public var scenario: Scenario?

    /// Creates a peer; the defaults make it a controlee / responder on channel 9, preamble 10,
    /// every 200 ms.
    public init(
        sessionID: UInt32, address: UCIMACAddress, peerAddress: UCIMACAddress, channel: UInt8 = 9,
        preambleCodeIndex: UInt8 = 10, deviceType: UCIDeviceType = .controlee, deviceRole: UCIDeviceRole = .responder,
        rangingInterval: UInt32 = 200, scenario: Scenario? = nil
    ) {
        self.sessionID = sessionID
        self.address = address
        self.peerAddress = peerAddress
        self.channel = channel
        self.preambleCodeIndex = preambleCodeIndex
        self.deviceType = deviceType
        self.deviceRole = deviceRole
        self.rangingInterval = rangingInterval
        self.scenario = scenario
    }

    /// The counterpart of a host session: opposite type and role, `address` as its own MAC, the
    /// host's MAC as its peer, the host's channel, preamble and interval.
    public init?(mirroring host: VirtualSessionConfiguration, sessionID: UInt32, address: UCIMACAddress) {
        guard let hostAddress = host.deviceMACAddress, let type = host.deviceType, let role = host.deviceRole else {
            return nil
        }
        self.init(
            sessionID: sessionID, address: address, peerAddress: hostAddress, channel: host.channel,
            preambleCodeIndex: host.preambleCodeIndex,
            deviceType: type == .controller ? .controlee : .controller,
            deviceRole: role == .initiator ? .responder : .initiator, rangingInterval: host.rangingInterval)
    }

    /// The forms ``init(parsing:)`` accepts, for help texts and errors.
    public static let syntax =
        "session=ID,mac=ADDR,peer=ADDR[,channel=9][,preamble=10][,interval=200][,role=responder|initiator]"
        + "[,type=controlee|controller][,scenario=NAME]"

    /// Parses `session=42,mac=0x0002,peer=0x0001,channel=9,preamble=10`: numbers in decimal or
    /// with `0x`; addresses of up to 4 hex digits are short, longer ones (up to 16) extended.
    /// - Throws: ``VirtualUWBSError`` (`invalidParameter`) naming the key and the accepted values.
    public init(parsing text: String) throws(VirtualUWBSError) {
        func invalid(_ reason: String) -> VirtualUWBSError {
            VirtualUWBSError(.invalidParameter, "invalid peer \"\(text)\": \(reason); the form is \(Self.syntax)")
        }
        var fields: [String: String] = [:]
        for part in text.split(separator: ",", omittingEmptySubsequences: true) {
            let pair = part.split(separator: "=", maxSplits: 1).map { String($0.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
            guard pair.count == 2, !pair[1].isEmpty else { throw invalid("\"\(part)\" is not KEY=VALUE") }
            let key = pair[0].lowercased()
            guard Self.keys.contains(key) else {
                throw invalid("unknown key \"\(pair[0])\" (known: \(Self.keys.joined(separator: ", ")))")
            }
            guard fields[key] == nil else { throw invalid("\"\(key)\" is given twice") }
            fields[key] = pair[1]
        }
        func number(_ key: String, max: UInt64) throws(VirtualUWBSError) -> UInt64? {
            guard let value = fields[key] else { return nil }
            guard let parsed = Self.parseNumber(value), parsed <= max else {
                throw invalid("\(key) \"\(value)\" is not a number 0 ... \(max)")
            }
            return parsed
        }
        func parsedAddress(_ key: String) throws(VirtualUWBSError) -> UCIMACAddress {
            guard let value = fields[key] else { throw invalid("\(key)= is missing") }
            guard let parsed = Self.parseAddress(value) else {
                throw invalid("\(key) \"\(value)\" is not a MAC address (e.g. 0x0002, or 16 hex digits for an extended one)")
            }
            return parsed
        }
        guard let session = try number("session", max: UInt64(UInt32.max)) else { throw invalid("session= is missing") }
        sessionID = UInt32(session)
        address = try parsedAddress("mac")
        peerAddress = try parsedAddress("peer")
        channel = UInt8(try number("channel", max: 255) ?? 9)
        preambleCodeIndex = UInt8(try number("preamble", max: 255) ?? 10)
        rangingInterval = UInt32(try number("interval", max: UInt64(UInt32.max)) ?? 200)
        switch fields["role"]?.lowercased() {
        case nil, "responder": deviceRole = .responder
        case "initiator": deviceRole = .initiator
        case let other?: throw invalid("role \"\(other)\" is not responder or initiator")
        }
        switch fields["type"]?.lowercased() {
        case nil, "controlee": deviceType = .controlee
        case "controller": deviceType = .controller
        case let other?: throw invalid("type \"\(other)\" is not controlee or controller")
        }
        if let name = fields["scenario"] {
            do {
                scenario = try Scenario.named(name)
            } catch {
                throw invalid(error.description)
            }
        } else {
            scenario = nil
        }
        do {
            try validate()
        } catch {
            throw invalid(error.message)
        }
    }

    private static let keys = ["session", "mac", "peer", "channel", "preamble", "interval", "role", "type", "scenario"]

    private static func parseNumber(_ text: String) -> UInt64? {
        let lower = text.lowercased()
        return lower.hasPrefix("0x") ? UInt64(lower.dropFirst(2), radix: 16) : UInt64(lower)
    }

    private static func parseAddress(_ text: String) -> UCIMACAddress? {
        var digits = Substring(text.lowercased())
        if digits.hasPrefix("0x") { digits = digits.dropFirst(2) }
        digits = digits.filter { $0 != ":" }[...]
        guard (1...16).contains(digits.count), let value = UInt64(digits, radix: 16) else { return nil }
        return digits.count <= 4 ? .short(UInt16(value)) : .extended(value)
    }

    /// Checks the values.
    /// - Throws: ``VirtualUWBSError`` (`invalidParameter`) naming the value and the accepted range.
    public func validate() throws(VirtualUWBSError) {
        guard VirtualUWBSConfiguration.firaChannels.contains(channel) else {
            throw VirtualUWBSError(.invalidParameter, "peer channel \(channel) is not a FiRa channel (5, 6, 8, 9, 10, 12, 13, 14)")
        }
        guard (9...12).contains(preambleCodeIndex) || (25...32).contains(preambleCodeIndex) else {
            throw VirtualUWBSError(.invalidParameter, "peer preamble code index \(preambleCodeIndex) is out of range, expected 9 ... 12 or 25 ... 32")
        }
        guard (1...600_000).contains(rangingInterval) else {
            throw VirtualUWBSError(.invalidParameter, "peer ranging interval \(rangingInterval) ms is out of range, expected 1 ... 600000 ms")
        }
        guard address.isExtended == peerAddress.isExtended else {
            throw VirtualUWBSError(
                .invalidParameter, "peer addresses \(address) and \(peerAddress) must both be short or both extended")
        }
        guard address != peerAddress else {
            throw VirtualUWBSError(.invalidParameter, "the peer's address \(address) equals the host's; use two addresses")
        }
    }

    /// The session's app configuration: unicast DS-TWR (deferred), time-scheduled, the peer's
    /// addresses, channel, preamble and interval; slots fitted to the interval.
    public var sessionConfiguration: VirtualSessionConfiguration {
        let slotsPerRound = UInt8(max(1, min(25, Int(rangingInterval) * 1200 / 2400)))
        return VirtualSessionConfiguration([
            .deviceType(deviceType), .deviceRole(deviceRole), .multiNodeMode(.unicast),
            .rangingRoundUsage(.dsTWRDeferred), .scheduleMode(.timeScheduled),
            .macAddressMode(address.isExtended ? .extended : .short), .deviceMACAddress(address),
            .destinationMACAddresses([peerAddress]), .numberOfControlees(1), .channelNumber(channel),
            .preambleCodeIndex(preambleCodeIndex), .rangingDuration(milliseconds: rangingInterval),
            .slotsPerRangingRound(slotsPerRound),
        ])
    }

    /// `"session 42: 0x0002 -> 0x0001, channel 9, preamble 10, controlee/responder, 200 ms"`.
    public var description: String {
        "session \(sessionID): \(address) -> \(peerAddress), channel \(channel), preamble \(preambleCodeIndex), "
            + "\(deviceType.name?.lowercased() ?? "\(deviceType)")/\(deviceRole.name?.lowercased() ?? "\(deviceRole)"), "
            + "\(rangingInterval) ms" + (scenario.map { ", scenario \($0.name)" } ?? "")
    }
}
