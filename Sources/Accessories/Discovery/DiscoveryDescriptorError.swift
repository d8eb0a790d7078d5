/// A discovery descriptor is inconsistent; ``description`` names the field and the fix.
public enum DiscoveryDescriptorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A descriptor field, by its API name (``DiscoveryDescriptor``'s property names).
    public enum Field: String, Sendable, Hashable, CustomStringConvertible {
        case serviceUUID, companyIdentifier, manufacturerDataBlob, manufacturerDataMask
        case serviceDataBlob, serviceDataMask, nameSubstring

        /// The field's name.
        public var description: String { rawValue }
    }

    /// Neither a service UUID nor a company identifier: the descriptor would match every device.
    case missingServiceOrCompany
    /// A mask is not as long as its blob.
    case maskLengthMismatch(mask: Field, maskLength: Int, blob: Field, blobLength: Int)
    /// A mask was given without its blob.
    case maskWithoutBlob(mask: Field, blob: Field)
    /// A blob was given without the field it belongs to (manufacturer data needs the company
    /// identifier, service data the service UUID).
    case blobWithoutKey(blob: Field, key: Field)
    /// A blob or a name substring is empty.
    case empty(Field)

    /// What is wrong and how to fix it.
    public var description: String {
        switch self {
        case .missingServiceOrCompany:
            return "a discovery descriptor needs a service UUID or a company identifier (or both); "
                + "without either it would match every device nearby"
        case .maskLengthMismatch(let mask, let maskLength, let blob, let blobLength):
            return "\(mask) has \(maskLength) byte(s) but \(blob) has \(blobLength): "
                + "the mask must be exactly as long as the blob (one mask byte per blob byte)"
        case .maskWithoutBlob(let mask, let blob):
            return "\(mask) was given without \(blob): a mask only selects bits of its blob; give the blob too"
        case .blobWithoutKey(let blob, let key):
            return "\(blob) needs \(key): the blob is compared with the data advertised under that \(key == .serviceUUID ? "service UUID" : "company identifier")"
        case .empty(let field):
            return "\(field) is empty: leave it out or give at least one \(field == .nameSubstring ? "character" : "byte")"
        }
    }
}
