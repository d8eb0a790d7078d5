public import LowEnergy

/// One advertising report for JSON (`nearby scan --json`): `address`, `address_type`, `rssi`,
/// `name`, `service_uuids`, `manufacturer` `{company, data}` (the first) or null, `service_data`
/// `{uuid: hex}`; data as lower-case hex.
public struct AdvertisementJSON: Encodable, Sendable {
    /// The report.
    public let advertisement: Advertisement

    /// Wraps `advertisement` for encoding.
    public init(_ advertisement: Advertisement) { self.advertisement = advertisement }

    enum CodingKeys: String, CodingKey {
        case address, rssi, name, manufacturer
        case addressType = "address_type"
        case serviceUUIDs = "service_uuids"
        case serviceData = "service_data"
    }

    struct Manufacturer: Encodable {
        let company: UInt16
        let data: String
    }

    /// Encodes the keys above.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        let data = advertisement.data
        try container.encode(advertisement.address.description, forKey: .address)
        try container.encode(advertisement.addressType.description, forKey: .addressType)
        if let rssi = advertisement.rssi { try container.encode(rssi, forKey: .rssi) } else { try container.encodeNil(forKey: .rssi) }
        if let name = advertisement.name { try container.encode(name, forKey: .name) } else { try container.encodeNil(forKey: .name) }
        try container.encode(data.serviceUUIDs.map(\.description), forKey: .serviceUUIDs)
        if let first = data.manufacturerData.first {
            try container.encode(Manufacturer(company: first.companyIdentifier, data: HexBytes.encode(first.data)), forKey: .manufacturer)
        } else {
            try container.encodeNil(forKey: .manufacturer)
        }
        var serviceData: [String: String] = [:]
        for field in data.serviceData where serviceData[field.uuid.description] == nil {
            serviceData[field.uuid.description] = HexBytes.encode(field.data)
        }
        try container.encode(serviceData, forKey: .serviceData)
    }
}
