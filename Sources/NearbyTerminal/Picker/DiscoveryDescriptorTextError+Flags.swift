public import Accessories

extension DiscoveryDescriptorTextError {
    /// The message in the words of a command line that takes the descriptor as flags (`nearby
    /// scan`, `nearby setup`): `--service`, `--company`, `--manufacturer-data HEX[/MASK]`,
    /// `--service-data HEX[/MASK]`, `--name-contains`.
    public var flagDescription: String {
        switch self {
        case .invalid(let inconsistent): "\(self) (\(Self.flags(inconsistent)))"
        case .notUUID: "--service \(self)"
        case .notCompanyIdentifier: "--company \(self)"
        case .notBlob(let field, _), .notMask(let field, _): "\(field == .manufacturerData ? "--manufacturer-data" : "--service-data") \(self)"
        }
    }

    /// The flags a descriptor error is about.
    static func flags(_ error: DiscoveryDescriptorError) -> String {
        switch error {
        case .missingServiceOrCompany: return "give --service or --company"
        case .maskLengthMismatch(let mask, _, _, _), .maskWithoutBlob(let mask, _):
            return mask == .manufacturerDataMask ? "--manufacturer-data HEX/MASK" : "--service-data HEX/MASK"
        case .blobWithoutKey(let blob, _):
            return blob == .manufacturerDataBlob ? "--manufacturer-data needs --company" : "--service-data needs --service"
        case .empty(let field):
            return field == .nameSubstring ? "--name-contains" : "--manufacturer-data / --service-data"
        }
    }
}
