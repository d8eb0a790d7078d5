/// The attributes a ``GATTServer`` serves, with their handles (Core Vol 3 Part G 3): pure data,
/// built once from service definitions.
///
/// Handles are dense from 0x0001: each service is its declaration (0x2800 / 0x2801, value = the
/// service UUID), then per characteristic its declaration (0x2803: properties, value handle,
/// UUID), its value, its Client Characteristic Configuration descriptor (0x2902) if it
/// notifies or indicates, and its User Description (0x2901) if it has one.
public struct AttributeDatabase: Sendable {
    /// What an attribute is.
    public enum Kind: Sendable, Hashable {
        /// A service declaration; the service ends at `end`.
        case service(end: UInt16)
        /// A characteristic declaration.
        case characteristicDeclaration
        /// A characteristic value.
        case value(GATTServerCharacteristic)
        /// The Client Characteristic Configuration descriptor of the value at `valueHandle`
        /// (its value lives per connection in the server).
        case clientConfiguration(valueHandle: UInt16, properties: GATTCharacteristicProperties)
        /// A read-only descriptor (user description).
        case descriptor
    }

    /// One attribute.
    public struct Attribute: Sendable, Hashable {
        /// Its handle.
        public var handle: UInt16
        /// Its type.
        public var type: BluetoothUUID
        /// Its stored value (per-connection values, the CCCDs, are kept by the server).
        public var value: [UInt8]
        /// What it is.
        public var kind: Kind
    }

    /// Every attribute, in handle order (`attributes[h - 1].handle == h`).
    public private(set) var attributes: [Attribute] = []
    /// Where each characteristic landed, by (service UUID, characteristic UUID).
    private var handles: [ServiceCharacteristic: GATTServerHandles] = [:]

    private struct ServiceCharacteristic: Hashable {
        var service: BluetoothUUID
        var characteristic: BluetoothUUID
    }

    /// Builds the database from `services`, in order.
    /// - Throws: ``BluetoothError/invalidArgument(detail:)`` when the services need more than
    ///   65535 handles or a value is longer than 512 bytes.
    public init(services: [GATTServerService]) throws(BluetoothError) {
        for service in services {
            let count = 1 + service.characteristics.reduce(0) { total, c in
                total + 2 + (c.hasConfiguration ? 1 : 0) + (c.userDescription == nil ? 0 : 1)
            }
            guard attributes.count + count <= 0xFFFF else {
                throw .invalidArgument(detail: "the GATT services need more than 65535 handles")
            }
            let end = UInt16(attributes.count + count)
            append(service.isPrimary ? .primaryService : .secondaryService, service.uuid.attBytes, .service(end: end))
            for characteristic in service.characteristics {
                guard characteristic.value.count <= 512 else {
                    throw .invalidArgument(detail: "characteristic \(characteristic.uuid): a value is at most 512 bytes, not \(characteristic.value.count)")
                }
                let declaration = UInt16(attributes.count + 1)
                let valueHandle = declaration + 1
                var declared: [UInt8] = [characteristic.properties.rawValue]
                declared.appendLE(valueHandle)
                declared += characteristic.uuid.attBytes
                append(.characteristicDeclaration, declared, .characteristicDeclaration)
                append(characteristic.uuid, characteristic.value, .value(characteristic))
                var configuration: UInt16?
                if characteristic.hasConfiguration {
                    configuration = UInt16(attributes.count + 1)
                    append(.clientCharacteristicConfiguration, [0, 0],
                           .clientConfiguration(valueHandle: valueHandle, properties: characteristic.properties))
                }
                if let description = characteristic.userDescription {
                    append(.characteristicUserDescription, Array(description.utf8.prefix(512)), .descriptor)
                }
                let key = ServiceCharacteristic(service: service.uuid, characteristic: characteristic.uuid)
                if handles[key] == nil {
                    handles[key] = GATTServerHandles(declaration: declaration, value: valueHandle, configuration: configuration)
                }
            }
        }
    }

    private mutating func append(_ type: BluetoothUUID, _ value: [UInt8], _ kind: Kind) {
        attributes.append(Attribute(handle: UInt16(attributes.count + 1), type: type, value: value, kind: kind))
    }

    /// The last handle in use (0 for an empty database).
    public var lastHandle: UInt16 { UInt16(attributes.count) }

    /// The attribute at `handle`, `nil` if there is none.
    public func attribute(_ handle: UInt16) -> Attribute? {
        guard handle >= 1, Int(handle) <= attributes.count else { return nil }
        return attributes[Int(handle) - 1]
    }

    /// The handles of characteristic `characteristic` in service `service` (the first one if
    /// several share the UUIDs), `nil` if it is not served.
    public func handles(of characteristic: BluetoothUUID, in service: BluetoothUUID) -> GATTServerHandles? {
        handles[ServiceCharacteristic(service: service, characteristic: characteristic)]
    }

    /// The attributes with handles in `start...end` (empty if the range is empty).
    public func attributes(in start: UInt16, _ end: UInt16) -> ArraySlice<Attribute> {
        let lower = max(Int(start), 1)
        let upper = min(Int(end), attributes.count)
        guard lower <= upper else { return [] }
        return attributes[(lower - 1)..<upper]
    }

    /// Replaces the stored value at `handle` (a characteristic value or descriptor).
    mutating func setValue(_ value: [UInt8], at handle: UInt16) {
        guard handle >= 1, Int(handle) <= attributes.count else { return }
        attributes[Int(handle) - 1].value = value
    }
}
