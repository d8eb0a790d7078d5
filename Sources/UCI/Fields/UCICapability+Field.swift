extension UCIDeviceInfo {
    /// The versions and the vendor bytes as fields: `uci_version`, `mac_version`, `phy_version`,
    /// `test_version`, `vendor_info` (CORE_GET_DEVICE_INFO_RSP, `nearby uwb info`).
    public var fields: [UCIField] {
        [
            UCIField("uci_version", .text(uciVersion.description)),
            UCIField("mac_version", .text(macVersion.description)),
            UCIField("phy_version", .text(phyVersion.description)),
            UCIField("test_version", .text(testVersion.description)),
            UCIField("vendor_info", .bytes(vendorInfo)),
        ]
    }
}

extension UCICapabilities {
    /// Every capability as a field decoded for its kind (see ``UCICapability/field(version:)``).
    public var fields: [UCIField] { entries.map { $0.field(version: version) } }
}

extension UCICapability {
    /// The capability as a field, decoded for its kind with the numbering of `version`:
    /// channels as numbers, roles / methods / STS configs / modes as named codes, AoA support
    /// in words, flags as yes / no, sizes as integers, version ranges as text. A kind nearby
    /// does not decode (or a value of an unexpected size) keeps its raw bytes; a malformed
    /// value is shown as its bytes with what is wrong. The name is the kind in lower case, or
    /// `capability_0xNN` for an unknown ID.
    public func field(version: UCIVersion) -> UCIField {
        let kind = kind(for: version)
        let name: String
        if case .other(let id) = kind {
            name = "capability_0x" + String(id, radix: 16)
        } else {
            name = kind.description.lowercased()
        }
        let single = UCICapabilities([self], version: version)
        func codes<T>(_ values: [T]?, _ describe: (T) -> (String?, UInt8)) -> UCIFieldValue? {
            values.map { .list($0.map { value in
                let (label, raw) = describe(value)
                return .code(label ?? "reserved", raw: UInt64(raw))
            }) }
        }
        let decoded: UCIFieldValue?
        do {
            switch kind {
            case .channels: decoded = try single.channels().map { .list($0.map { .integer(Int64($0)) }) }
            case .deviceRoles: decoded = codes(try single.deviceRoles()) { ($0.name, $0.rawValue) }
            case .rangingMethods: decoded = codes(try single.rangingMethods()) { ($0.name, $0.rawValue) }
            case .stsConfigs: decoded = codes(try single.stsConfigs()) { ($0.name, $0.rawValue) }
            case .multiNodeModes: decoded = codes(try single.multiNodeModes()) { ($0.name, $0.rawValue) }
            case .rframeConfigs: decoded = codes(try single.rframeConfigs()) { ($0.name, $0.rawValue) }
            case .aoa:
                decoded = try single.aoa().map { aoa in
                    let names: [(UCIAoACapability, String)] = [
                        (.azimuth90, "azimuth ±90°"), (.azimuth180, "azimuth ±180°"), (.elevation, "elevation"), (.figureOfMerit, "FoM"),
                    ]
                    return .list(names.filter { aoa.contains($0.0) }.map { .text($0.1) })
                }
            case .extendedMACAddress: decoded = try single.supportsExtendedMACAddress().map { .flag($0) }
            case .hoppingMode: decoded = try single.supportsHopping().map { .flag($0) }
            case .uwbInitiationTime: decoded = try single.supportsUWBInitiationTime().map { .flag($0) }
            case .maxMessageSize: decoded = try single.maxMessageSize().map { .integer(Int64($0)) }
            case .maxDataPacketPayloadSize: decoded = try single.maxDataPacketPayloadSize().map { .integer(Int64($0)) }
            case .deviceTypes:
                decoded = codes(Self.bitIndices(value)) { bit in (UCIDeviceType(rawValue: bit).name, bit) }
            case .scheduledModes:
                decoded = codes(Self.bitIndices(value)) { bit in (UCIScheduleMode(rawValue: bit).name, bit) }
            case .blockStriding where value.count == 1: decoded = .flag(value[0] != 0)
            case .phyVersionRange where value.count == 4, .macVersionRange where value.count == 4:
                decoded = .text("\(value[0]).\(value[1]) to \(value[2]).\(value[3])")
            default: decoded = nil
            }
        } catch {
            return UCIField(name, .text("\(UCIFieldValue.bytes(value).text) (malformed: \(error.detail))"))
        }
        return UCIField(name, decoded ?? .bytes(value))
    }

    /// The bits set in a little-endian bit mask of 1-8 bytes (bit n = value n), `nil` for other sizes.
    static func bitIndices(_ mask: [UInt8]) -> [UInt8]? {
        guard (1...8).contains(mask.count) else { return nil }
        return mask.enumerated().flatMap { index, byte in
            (0..<8).compactMap { bit in byte & (1 << bit) != 0 ? UInt8(8 * index + bit) : nil }
        }
    }
}
