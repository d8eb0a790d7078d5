/// Advertising or scan response data: a sequence of AD structures (Core Vol 3 Part C 11,
/// Core Specification Supplement Part A), parsed.
///
/// Parsing never traps and never throws: malformed input keeps everything that parsed before the
/// problem and describes the problem in ``problems``. Every structure is kept raw in
/// ``elements`` (unknown types included); the common ones are decoded into typed properties.
public struct AdvertisingData: Sendable, Hashable {
    /// One AD structure: its type and value (without the length byte).
    public struct Element: Sendable, Hashable {
        /// The AD type (0x01 flags, 0x09 complete local name, 0xFF manufacturer data, ...).
        public var type: UInt8
        /// The value bytes.
        public var value: [UInt8]

        /// Creates an element.
        public init(type: UInt8, value: [UInt8]) {
            self.type = type
            self.value = value
        }
    }

    /// AD type codes this parser decodes.
    public enum ADType {
        /// 0x01 Flags.
        public static let flags: UInt8 = 0x01
        /// 0x02 Incomplete List of 16-bit Service UUIDs.
        public static let incompleteServiceUUIDs16: UInt8 = 0x02
        /// 0x03 Complete List of 16-bit Service UUIDs.
        public static let completeServiceUUIDs16: UInt8 = 0x03
        /// 0x04 Incomplete List of 32-bit Service UUIDs.
        public static let incompleteServiceUUIDs32: UInt8 = 0x04
        /// 0x05 Complete List of 32-bit Service UUIDs.
        public static let completeServiceUUIDs32: UInt8 = 0x05
        /// 0x06 Incomplete List of 128-bit Service UUIDs.
        public static let incompleteServiceUUIDs128: UInt8 = 0x06
        /// 0x07 Complete List of 128-bit Service UUIDs.
        public static let completeServiceUUIDs128: UInt8 = 0x07
        /// 0x08 Shortened Local Name.
        public static let shortenedLocalName: UInt8 = 0x08
        /// 0x09 Complete Local Name.
        public static let completeLocalName: UInt8 = 0x09
        /// 0x0A TX Power Level.
        public static let txPowerLevel: UInt8 = 0x0A
        /// 0x14 List of 16-bit Service Solicitation UUIDs.
        public static let solicitedServiceUUIDs16: UInt8 = 0x14
        /// 0x15 List of 128-bit Service Solicitation UUIDs.
        public static let solicitedServiceUUIDs128: UInt8 = 0x15
        /// 0x16 Service Data - 16-bit UUID.
        public static let serviceData16: UInt8 = 0x16
        /// 0x19 Appearance.
        public static let appearance: UInt8 = 0x19
        /// 0x1F List of 32-bit Service Solicitation UUIDs.
        public static let solicitedServiceUUIDs32: UInt8 = 0x1F
        /// 0x20 Service Data - 32-bit UUID.
        public static let serviceData32: UInt8 = 0x20
        /// 0x21 Service Data - 128-bit UUID.
        public static let serviceData128: UInt8 = 0x21
        /// 0xFF Manufacturer Specific Data.
        public static let manufacturerSpecificData: UInt8 = 0xFF
    }

    /// Every AD structure, in order.
    public private(set) var elements: [Element] = []
    /// What was malformed, if anything (e.g. "AD structure at offset 12 claims 30 bytes but only
    /// 5 remain"). Data after a framing error is not parsed.
    public private(set) var problems: [String] = []

    /// The Flags field.
    public private(set) var flags: AdvertisingFlags?
    /// Every advertised service UUID (16-, 32- and 128-bit lists, complete or not), in order,
    /// without duplicates.
    public private(set) var serviceUUIDs: [BluetoothUUID] = []
    /// `true` if at least one service UUID list was marked incomplete (the device has more).
    public private(set) var hasIncompleteServiceUUIDList = false
    /// Service solicitation UUIDs.
    public private(set) var solicitedServiceUUIDs: [BluetoothUUID] = []
    /// The Complete Local Name.
    public private(set) var completeLocalName: String?
    /// The Shortened Local Name.
    public private(set) var shortenedLocalName: String?
    /// The TX Power Level field, dBm.
    public private(set) var txPowerLevel: Int8?
    /// The Appearance field (GAP appearance value).
    public private(set) var appearance: UInt16?
    /// Every Service Data field, in order.
    public private(set) var serviceData: [ServiceData] = []
    /// Every Manufacturer Specific Data field, in order.
    public private(set) var manufacturerData: [ManufacturerData] = []

    /// The complete local name, else the shortened one.
    public var localName: String? { completeLocalName ?? shortenedLocalName }

    /// `true` if nothing was advertised.
    public var isEmpty: Bool { elements.isEmpty }

    /// Creates empty data.
    public init() {}

    /// Parses AD structures from `bytes` (up to 31 bytes for legacy advertising, up to 1650 for
    /// extended). Never traps; see ``problems``.
    public init(parsing bytes: some Collection<UInt8>) {
        let data = Array(bytes)
        var offset = 0
        while offset < data.count {
            let length = Int(data[offset])
            if length == 0 {
                // The significant part ended; the rest is padding (Core Vol 3 Part C 11).
                break
            }
            guard offset + 1 + length <= data.count else {
                problems.append("AD structure at offset \(offset) claims \(length) bytes but only \(data.count - offset - 1) remain: \(hexDump(data[offset...]))")
                break
            }
            let type = data[offset + 1]
            let value = Array(data[(offset + 2)..<(offset + 1 + length)])
            add(Element(type: type, value: value), at: offset)
            offset += 1 + length
        }
    }

    /// Creates data from elements (e.g. to build advertising data for a simulated accessory).
    public init(elements: [Element]) {
        for element in elements { add(element, at: nil) }
    }

    /// The wire form: each element as length, type, value.
    /// - Note: an element whose value exceeds 254 bytes cannot be encoded and is truncated to 254.
    public var encoded: [UInt8] {
        var bytes: [UInt8] = []
        for element in elements {
            let value = element.value.prefix(254)
            bytes.append(UInt8(value.count + 1))
            bytes.append(element.type)
            bytes.append(contentsOf: value)
        }
        return bytes
    }

    /// This data followed by `other`'s elements (e.g. advertising data plus scan response).
    public func merging(_ other: AdvertisingData) -> AdvertisingData {
        var merged = AdvertisingData(elements: elements + other.elements)
        merged.problems = problems + other.problems
        return merged
    }

    /// The payload of the first Service Data field for `uuid`.
    public func serviceData(for uuid: BluetoothUUID) -> [UInt8]? {
        serviceData.first { $0.uuid == uuid }?.data
    }

    /// The payload (after the company identifier) of the first Manufacturer Specific Data field
    /// from `companyIdentifier`.
    public func manufacturerData(for companyIdentifier: UInt16) -> [UInt8]? {
        manufacturerData.first { $0.companyIdentifier == companyIdentifier }?.data
    }

    private mutating func add(_ element: Element, at offset: Int?) {
        elements.append(element)
        let value = element.value
        func problem(_ text: String) {
            let place = offset.map { " at offset \($0)" } ?? ""
            problems.append("AD type 0x\(hex(element.type))\(place): \(text): \(hexDump(value))")
        }
        switch element.type {
        case ADType.flags:
            guard let first = value.first else { return problem("empty flags") }
            flags = AdvertisingFlags(rawValue: first)
        case ADType.incompleteServiceUUIDs16, ADType.completeServiceUUIDs16,
             ADType.incompleteServiceUUIDs32, ADType.completeServiceUUIDs32,
             ADType.incompleteServiceUUIDs128, ADType.completeServiceUUIDs128:
            let size = Self.uuidSize(element.type)
            guard value.count % size == 0 else {
                return problem("\(value.count) bytes is not a list of \(size * 8)-bit UUIDs")
            }
            if element.type & 0x01 == 0 { hasIncompleteServiceUUIDList = true }
            for uuid in Self.uuids(value, size: size) where !serviceUUIDs.contains(uuid) {
                serviceUUIDs.append(uuid)
            }
        case ADType.solicitedServiceUUIDs16, ADType.solicitedServiceUUIDs32, ADType.solicitedServiceUUIDs128:
            let size = element.type == ADType.solicitedServiceUUIDs16 ? 2 : element.type == ADType.solicitedServiceUUIDs32 ? 4 : 16
            guard value.count % size == 0 else {
                return problem("\(value.count) bytes is not a list of \(size * 8)-bit UUIDs")
            }
            solicitedServiceUUIDs.append(contentsOf: Self.uuids(value, size: size))
        case ADType.shortenedLocalName:
            shortenedLocalName = String(decoding: value, as: UTF8.self)
        case ADType.completeLocalName:
            completeLocalName = String(decoding: value, as: UTF8.self)
        case ADType.txPowerLevel:
            guard value.count == 1 else { return problem("TX power level must be 1 byte") }
            txPowerLevel = Int8(bitPattern: value[0])
        case ADType.appearance:
            guard value.count == 2 else { return problem("appearance must be 2 bytes") }
            appearance = UInt16(value[0]) | UInt16(value[1]) << 8
        case ADType.serviceData16, ADType.serviceData32, ADType.serviceData128:
            let size = element.type == ADType.serviceData16 ? 2 : element.type == ADType.serviceData32 ? 4 : 16
            guard value.count >= size, let uuid = BluetoothUUID(littleEndian: value.prefix(size)) else {
                return problem("service data shorter than its \(size * 8)-bit UUID")
            }
            serviceData.append(ServiceData(uuid: uuid, data: Array(value.dropFirst(size))))
        case ADType.manufacturerSpecificData:
            guard value.count >= 2 else { return problem("manufacturer data shorter than its 2-byte company identifier") }
            manufacturerData.append(ManufacturerData(
                companyIdentifier: UInt16(value[0]) | UInt16(value[1]) << 8, data: Array(value.dropFirst(2))))
        default:
            break
        }
    }

    private static func uuidSize(_ type: UInt8) -> Int {
        switch type {
        case 0x02, 0x03: return 2
        case 0x04, 0x05: return 4
        default: return 16
        }
    }

    private static func uuids(_ value: [UInt8], size: Int) -> [BluetoothUUID] {
        stride(from: 0, to: value.count, by: size).compactMap { BluetoothUUID(littleEndian: value[$0..<$0 + size]) }
    }
}

extension AdvertisingData.Element {
    /// A Flags element.
    public static func flags(_ flags: AdvertisingFlags) -> Self {
        Self(type: AdvertisingData.ADType.flags, value: [flags.rawValue])
    }

    /// Complete service UUID lists: one element per UUID size present (16, 32, 128 bits).
    public static func completeServiceUUIDs(_ uuids: [BluetoothUUID]) -> [Self] {
        var by16: [UInt8] = []
        var by32: [UInt8] = []
        var by128: [UInt8] = []
        for uuid in uuids {
            if let bytes = uuid.littleEndianBytes(size: 2) {
                by16 += bytes
            } else if let bytes = uuid.littleEndianBytes(size: 4) {
                by32 += bytes
            } else {
                by128 += uuid.littleEndianBytes(size: 16)!
            }
        }
        var elements: [Self] = []
        if !by16.isEmpty { elements.append(Self(type: AdvertisingData.ADType.completeServiceUUIDs16, value: by16)) }
        if !by32.isEmpty { elements.append(Self(type: AdvertisingData.ADType.completeServiceUUIDs32, value: by32)) }
        if !by128.isEmpty { elements.append(Self(type: AdvertisingData.ADType.completeServiceUUIDs128, value: by128)) }
        return elements
    }

    /// A Complete Local Name element (UTF-8).
    public static func completeLocalName(_ name: String) -> Self {
        Self(type: AdvertisingData.ADType.completeLocalName, value: Array(name.utf8))
    }

    /// A Manufacturer Specific Data element: company identifier (little-endian), then `data`.
    public static func manufacturerData(companyIdentifier: UInt16, data: [UInt8]) -> Self {
        Self(type: AdvertisingData.ADType.manufacturerSpecificData,
             value: [UInt8(companyIdentifier & 0xFF), UInt8(companyIdentifier >> 8)] + data)
    }

    /// A Service Data element, with the shortest UUID form.
    public static func serviceData(uuid: BluetoothUUID, data: [UInt8]) -> Self {
        if let bytes = uuid.littleEndianBytes(size: 2) {
            return Self(type: AdvertisingData.ADType.serviceData16, value: bytes + data)
        }
        if let bytes = uuid.littleEndianBytes(size: 4) {
            return Self(type: AdvertisingData.ADType.serviceData32, value: bytes + data)
        }
        return Self(type: AdvertisingData.ADType.serviceData128, value: uuid.littleEndianBytes(size: 16)! + data)
    }

    /// A TX Power Level element, dBm.
    public static func txPowerLevel(_ dBm: Int8) -> Self {
        Self(type: AdvertisingData.ADType.txPowerLevel, value: [UInt8(bitPattern: dBm)])
    }
}

/// The Flags AD field.
public struct AdvertisingFlags: OptionSet, Sendable, Hashable {
    /// The flag bits.
    public let rawValue: UInt8

    /// Creates flags from their bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// LE Limited Discoverable Mode.
    public static let leLimitedDiscoverable = AdvertisingFlags(rawValue: 0x01)
    /// LE General Discoverable Mode.
    public static let leGeneralDiscoverable = AdvertisingFlags(rawValue: 0x02)
    /// BR/EDR Not Supported.
    public static let brEdrNotSupported = AdvertisingFlags(rawValue: 0x04)
    /// Simultaneous LE and BR/EDR (controller).
    public static let simultaneousController = AdvertisingFlags(rawValue: 0x08)
    /// Simultaneous LE and BR/EDR (host).
    public static let simultaneousHost = AdvertisingFlags(rawValue: 0x10)
}

/// A Service Data AD field.
public struct ServiceData: Sendable, Hashable {
    /// The service UUID.
    public var uuid: BluetoothUUID
    /// The data after the UUID.
    public var data: [UInt8]

    /// Creates a field.
    public init(uuid: BluetoothUUID, data: [UInt8]) {
        self.uuid = uuid
        self.data = data
    }
}

/// A Manufacturer Specific Data AD field.
public struct ManufacturerData: Sendable, Hashable {
    /// The Bluetooth SIG company identifier (0x004C Apple, 0x0075 Samsung, ...).
    public var companyIdentifier: UInt16
    /// The data after the company identifier.
    public var data: [UInt8]

    /// Creates a field.
    public init(companyIdentifier: UInt16, data: [UInt8]) {
        self.companyIdentifier = companyIdentifier
        self.data = data
    }
}
