import LowEnergy
import NearbyBase

extension DiscoveryDescriptor {
    /// A descriptor from text as people type it (`nearby scan` / `nearby setup` flags):
    /// - `service`: 4 or 8 hex digits (`180D`) or 8-4-4-4-12 hex digits;
    /// - `company`: `0x004C` (hex with `0x`) or `76` (decimal);
    /// - `manufacturerData`, `serviceData`: `HEX` or `HEX/MASK` (`0a0b/ff0f`).
    /// - Throws: ``DiscoveryDescriptorTextError`` naming the text that is not what it should be,
    ///   or wrapping the ``DiscoveryDescriptorError`` of an inconsistent descriptor.
    ///
    /// The four texts have no defaults, so this initialiser is chosen only when all of them are
    /// written (`nil` where not given).
    public init(
        service: String?, company: String?, manufacturerData: String?, serviceData: String?,
        nameSubstring: String? = nil, nameIgnoresCase: Bool = false, range: DiscoveryRange = .default
    ) throws(DiscoveryDescriptorTextError) {
        var uuid: BluetoothUUID?
        if let service {
            guard let parsed = BluetoothUUID(service) else { throw .notUUID(service) }
            uuid = parsed
        }
        var companyID: UInt16?
        if let company {
            guard let parsed = Self.companyIdentifier(company) else { throw .notCompanyIdentifier(company) }
            companyID = parsed
        }
        let manufacturer = try manufacturerData.map { text throws(DiscoveryDescriptorTextError) in try Self.blob(text, .manufacturerData) }
        let serviceBlob = try serviceData.map { text throws(DiscoveryDescriptorTextError) in try Self.blob(text, .serviceData) }
        do {
            try self.init(
                serviceUUID: uuid, companyIdentifier: companyID,
                manufacturerDataBlob: manufacturer?.blob, manufacturerDataMask: manufacturer?.mask,
                serviceDataBlob: serviceBlob?.blob, serviceDataMask: serviceBlob?.mask,
                nameSubstring: nameSubstring, nameIgnoresCase: nameIgnoresCase, range: range)
        } catch {
            throw .invalid(error)
        }
    }

    /// `0x004C`, `0X4c` (hex) or `76` (decimal); `nil` for anything else.
    public static func companyIdentifier(_ text: String) -> UInt16? { IntegerText.parse(text) }

    /// `HEX` or `HEX/MASK`.
    static func blob(_ text: String, _ field: DiscoveryDescriptorTextError.Field) throws(DiscoveryDescriptorTextError) -> (blob: [UInt8], mask: [UInt8]?) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count <= 2, let blob = HexBytes.decode(parts[0]) else { throw .notBlob(field, text) }
        guard parts.count == 2 else { return (blob, nil) }
        guard let mask = HexBytes.decode(parts[1]) else { throw .notMask(field, parts[1]) }
        return (blob, mask)
    }
}

/// Text that does not make a discovery descriptor (``DiscoveryDescriptor/init(service:company:manufacturerData:serviceData:nameSubstring:nameIgnoresCase:range:)``).
/// The description starts with the text in quotes; a caller puts the field's name (or its
/// flag) in front: `--service "x" is not a UUID: ...`.
public enum DiscoveryDescriptorTextError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text fields.
    public enum Field: String, Sendable, Hashable {
        case service, company, manufacturerData, serviceData
    }

    /// The service text is not a UUID.
    case notUUID(String)
    /// The company text is not a company identifier.
    case notCompanyIdentifier(String)
    /// The data text is not `HEX` or `HEX/MASK`.
    case notBlob(Field, String)
    /// The mask after `/` is not hex.
    case notMask(Field, String)
    /// The values parse but do not make a descriptor.
    case invalid(DiscoveryDescriptorError)

    /// The text field at fault; `nil` for ``invalid(_:)``.
    public var field: Field? {
        switch self {
        case .notUUID: .service
        case .notCompanyIdentifier: .company
        case .notBlob(let field, _), .notMask(let field, _): field
        case .invalid: nil
        }
    }

    /// What is wrong and what to write instead.
    public var description: String {
        switch self {
        case .notUUID(let text): "\"\(text)\" is not a UUID: give 4 or 8 hex digits (180D) or 8-4-4-4-12 hex digits"
        case .notCompanyIdentifier(let text): "\"\(text)\" is not a company identifier: give 0x0000-0xFFFF (hex with 0x) or 0-65535"
        case .notBlob(_, let text): "\"\(text)\" is not HEX or HEX/MASK (an even number of hex digits, e.g. 0a0b or 0a0b/ff0f)"
        case .notMask(_, let text): "mask \"\(text)\" is not hex (an even number of hex digits, e.g. ff0f)"
        case .invalid(let error): error.description
        }
    }
}
