public import LowEnergy
import NearbyBase

/// Which advertisements an app's accessories send, like AccessorySetupKit's
/// `ASDiscoveryDescriptor`: every field that is set must match (logical AND).
///
/// - ``serviceUUID``: listed in the advertised service UUIDs (16-, 32- or 128-bit lists,
///   complete or incomplete) or the UUID of a Service Data field.
/// - ``companyIdentifier``: a Manufacturer Specific Data field from that company; with
///   ``manufacturerDataBlob`` (and ``manufacturerDataMask``) one such field's payload must
///   match the blob under the mask.
/// - ``serviceDataBlob`` (and ``serviceDataMask``): the Service Data field of ``serviceUUID``
///   must match the blob under the mask.
/// - ``nameSubstring``: contained in the local name (complete, else shortened), exactly or
///   ignoring case (``nameIgnoresCase``).
/// - ``range``: the report's RSSI (``DiscoveryRange``).
///
/// Blob matching: the blob is compared with the first `blob.count` bytes of the payload (the
/// bytes after the company identifier or service UUID): for each byte
/// `payload[i] & mask[i] == blob[i] & mask[i]`; the mask defaults to all `0xFF`. A payload
/// shorter than the blob does not match; longer payloads match on their prefix.
///
/// A descriptor is valid by construction: the initialiser and decoding throw
/// ``DiscoveryDescriptorError`` for inconsistent fields.
public struct DiscoveryDescriptor: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The service UUID the accessory advertises.
    public let serviceUUID: BluetoothUUID?
    /// The Bluetooth SIG company identifier of its manufacturer data (0x004C Apple, 0x0059
    /// Nordic, 0x00E0 Google, ...).
    public let companyIdentifier: UInt16?
    /// Bytes the manufacturer data payload (after the company identifier) starts with, under the mask.
    public let manufacturerDataBlob: [UInt8]?
    /// Which bits of ``manufacturerDataBlob`` must match (same length; `nil`: all).
    public let manufacturerDataMask: [UInt8]?
    /// Bytes the service data payload of ``serviceUUID`` starts with, under the mask.
    public let serviceDataBlob: [UInt8]?
    /// Which bits of ``serviceDataBlob`` must match (same length; `nil`: all).
    public let serviceDataMask: [UInt8]?
    /// Text the advertised local name contains.
    public let nameSubstring: String?
    /// Compare ``nameSubstring`` ignoring case (Unicode lower-casing of both sides).
    public let nameIgnoresCase: Bool
    /// How close the accessory must be.
    public let range: DiscoveryRange

    /// Creates a descriptor.
    /// - Throws: ``DiscoveryDescriptorError``: no service UUID and no company identifier; a mask
    ///   without its blob or of another length; manufacturer data without the company
    ///   identifier; service data without the service UUID; an empty blob or name substring.
    public init(serviceUUID: BluetoothUUID? = nil, companyIdentifier: UInt16? = nil,
                manufacturerDataBlob: [UInt8]? = nil, manufacturerDataMask: [UInt8]? = nil,
                serviceDataBlob: [UInt8]? = nil, serviceDataMask: [UInt8]? = nil,
                nameSubstring: String? = nil, nameIgnoresCase: Bool = false,
                range: DiscoveryRange = .default) throws(DiscoveryDescriptorError) {
        try Self.checkBlob(manufacturerDataBlob, .manufacturerDataBlob, mask: manufacturerDataMask, .manufacturerDataMask,
                           key: companyIdentifier != nil, .companyIdentifier)
        try Self.checkBlob(serviceDataBlob, .serviceDataBlob, mask: serviceDataMask, .serviceDataMask,
                           key: serviceUUID != nil, .serviceUUID)
        if let nameSubstring, nameSubstring.isEmpty { throw .empty(.nameSubstring) }
        guard serviceUUID != nil || companyIdentifier != nil else { throw .missingServiceOrCompany }
        self.serviceUUID = serviceUUID
        self.companyIdentifier = companyIdentifier
        self.manufacturerDataBlob = manufacturerDataBlob
        self.manufacturerDataMask = manufacturerDataMask
        self.serviceDataBlob = serviceDataBlob
        self.serviceDataMask = serviceDataMask
        self.nameSubstring = nameSubstring
        self.nameIgnoresCase = nameIgnoresCase
        self.range = range
    }

    private static func checkBlob(_ blob: [UInt8]?, _ blobField: DiscoveryDescriptorError.Field,
                                  mask: [UInt8]?, _ maskField: DiscoveryDescriptorError.Field,
                                  key: Bool, _ keyField: DiscoveryDescriptorError.Field) throws(DiscoveryDescriptorError) {
        if let mask {
            guard let blob else { throw .maskWithoutBlob(mask: maskField, blob: blobField) }
            guard mask.count == blob.count else {
                throw .maskLengthMismatch(mask: maskField, maskLength: mask.count, blob: blobField, blobLength: blob.count)
            }
        }
        if let blob {
            if blob.isEmpty { throw .empty(blobField) }
            if !key { throw .blobWithoutKey(blob: blobField, key: keyField) }
        }
    }

    // MARK: - Matching

    /// `true` if `advertisement` satisfies every field that is set. Pure: no I/O, no state.
    public func matches(_ advertisement: Advertisement) -> Bool {
        guard range.contains(rssi: advertisement.rssi) else { return false }
        let data = advertisement.data
        if let serviceUUID {
            guard data.serviceUUIDs.contains(serviceUUID) || data.serviceData.contains(where: { $0.uuid == serviceUUID }) else {
                return false
            }
            if let serviceDataBlob {
                let payloads = data.serviceData.filter { $0.uuid == serviceUUID }
                guard payloads.contains(where: { Self.payload($0.data, matches: serviceDataBlob, mask: serviceDataMask) }) else {
                    return false
                }
            }
        }
        if let companyIdentifier {
            let payloads = data.manufacturerData.filter { $0.companyIdentifier == companyIdentifier }
            guard !payloads.isEmpty else { return false }
            if let manufacturerDataBlob {
                guard payloads.contains(where: { Self.payload($0.data, matches: manufacturerDataBlob, mask: manufacturerDataMask) }) else {
                    return false
                }
            }
        }
        return Self.matches(advertisement, nameSubstring: nameSubstring, ignoringCase: nameIgnoresCase, range: .default)
    }

    /// The name and range checks alone, for filtering a scan by name without the service UUID or
    /// company identifier a descriptor needs (`nearby scan --name Tag`).
    /// - Parameters:
    ///   - advertisement: the advertising report to check.
    ///   - nameSubstring: text the advertised name (complete or shortened) must contain; `nil`: any.
    ///   - ignoringCase: compare ignoring case.
    ///   - range: the RSSI range the report must be in (see ``DiscoveryRange``).
    public static func matches(
        _ advertisement: Advertisement, nameSubstring: String?, ignoringCase: Bool, range: DiscoveryRange
    ) -> Bool {
        guard range.contains(rssi: advertisement.rssi) else { return false }
        guard let nameSubstring else { return true }
        guard let name = advertisement.data.localName else { return false }
        if ignoringCase { return name.lowercased().contains(nameSubstring.lowercased()) }
        return name.contains(nameSubstring)
    }

    /// `payload` starts with `blob` under `mask` (all bits when `mask` is `nil`).
    static func payload(_ payload: [UInt8], matches blob: [UInt8], mask: [UInt8]?) -> Bool {
        guard payload.count >= blob.count else { return false }
        for index in blob.indices {
            let bits = mask?[index] ?? 0xFF
            if payload[index] & bits != blob[index] & bits { return false }
        }
        return true
    }

    // MARK: - Text and Codable

    /// `service 6E400001-… company 0x004C data 0a0b/ffff name~"tag" range immediate`.
    public var description: String {
        var parts: [String] = []
        if let serviceUUID { parts.append("service \(serviceUUID)") }
        if let serviceDataBlob { parts.append("service data \(Self.blobText(serviceDataBlob, serviceDataMask))") }
        if let companyIdentifier { parts.append("company 0x\(Self.hex16(companyIdentifier))") }
        if let manufacturerDataBlob { parts.append("manufacturer data \(Self.blobText(manufacturerDataBlob, manufacturerDataMask))") }
        if let nameSubstring { parts.append("name contains \"\(nameSubstring)\"\(nameIgnoresCase ? " (any case)" : "")") }
        if range != .default { parts.append("range \(range)") }
        return parts.joined(separator: ", ")
    }

    static func blobText(_ blob: [UInt8], _ mask: [UInt8]?) -> String {
        HexBytes.encode(blob) + (mask.map { "/" + HexBytes.encode($0) } ?? "")
    }

    static func hex16(_ value: UInt16) -> String { Hex.digits(value, count: 4) }

    enum CodingKeys: String, CodingKey {
        case serviceUUID = "service_uuid"
        case companyIdentifier = "company_identifier"
        case manufacturerDataBlob = "manufacturer_data_blob"
        case manufacturerDataMask = "manufacturer_data_mask"
        case serviceDataBlob = "service_data_blob"
        case serviceDataMask = "service_data_mask"
        case nameSubstring = "name_substring"
        case nameIgnoresCase = "name_ignores_case"
        case range
    }

    /// Encodes with snake_case keys; blobs and masks as lower-case hex strings; absent fields omitted.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(serviceUUID, forKey: .serviceUUID)
        try container.encodeIfPresent(companyIdentifier, forKey: .companyIdentifier)
        try container.encodeIfPresent(manufacturerDataBlob.map(HexBytes.encode), forKey: .manufacturerDataBlob)
        try container.encodeIfPresent(manufacturerDataMask.map(HexBytes.encode), forKey: .manufacturerDataMask)
        try container.encodeIfPresent(serviceDataBlob.map(HexBytes.encode), forKey: .serviceDataBlob)
        try container.encodeIfPresent(serviceDataMask.map(HexBytes.encode), forKey: .serviceDataMask)
        try container.encodeIfPresent(nameSubstring, forKey: .nameSubstring)
        if nameIgnoresCase { try container.encode(true, forKey: .nameIgnoresCase) }
        if range != .default { try container.encode(range, forKey: .range) }
    }

    /// Decodes what ``encode(to:)`` writes and validates it.
    /// - Throws: `DecodingError.dataCorrupted` with the ``DiscoveryDescriptorError`` text or the bad hex.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func bytes(_ key: CodingKeys) throws -> [UInt8]? {
            guard let text = try container.decodeIfPresent(String.self, forKey: key) else { return nil }
            guard let bytes = HexBytes.decode(text) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "\"\(text)\" is not hex bytes")
            }
            return bytes
        }
        do {
            try self.init(
                serviceUUID: try container.decodeIfPresent(BluetoothUUID.self, forKey: .serviceUUID),
                companyIdentifier: try container.decodeIfPresent(UInt16.self, forKey: .companyIdentifier),
                manufacturerDataBlob: try bytes(.manufacturerDataBlob), manufacturerDataMask: try bytes(.manufacturerDataMask),
                serviceDataBlob: try bytes(.serviceDataBlob), serviceDataMask: try bytes(.serviceDataMask),
                nameSubstring: try container.decodeIfPresent(String.self, forKey: .nameSubstring),
                nameIgnoresCase: try container.decodeIfPresent(Bool.self, forKey: .nameIgnoresCase) ?? false,
                range: try container.decodeIfPresent(DiscoveryRange.self, forKey: .range) ?? .default)
        } catch let error as DiscoveryDescriptorError {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }
}
