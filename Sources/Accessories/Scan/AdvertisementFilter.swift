public import LowEnergy

/// What a scan shows: advertisements matching a full ``DiscoveryDescriptor``, or only a name
/// substring and a range (a scan filter needs no service UUID or company identifier; a setup
/// descriptor does). `nearby scan`'s filter.
public enum AdvertisementFilter: Sendable, Hashable, CustomStringConvertible {
    /// Every check of the descriptor.
    case descriptor(DiscoveryDescriptor)
    /// The name (complete or shortened, `nil`: any) and the RSSI range only.
    case nameAndRange(nameSubstring: String?, ignoringCase: Bool, range: DiscoveryRange)

    /// The filter the texts describe: ``nameAndRange(nameSubstring:ignoringCase:range:)`` when
    /// no service, company or data text is given, else a descriptor (see
    /// ``DiscoveryDescriptor/init(service:company:manufacturerData:serviceData:nameSubstring:nameIgnoresCase:range:)``).
    /// - Throws: ``DiscoveryDescriptorTextError`` for text that does not make a descriptor.
    public init(
        service: String?, company: String?, manufacturerData: String?, serviceData: String?,
        nameSubstring: String?, ignoringCase: Bool, range: DiscoveryRange
    ) throws(DiscoveryDescriptorTextError) {
        guard service != nil || company != nil || manufacturerData != nil || serviceData != nil else {
            self = .nameAndRange(nameSubstring: nameSubstring, ignoringCase: ignoringCase, range: range)
            return
        }
        self = .descriptor(
            try DiscoveryDescriptor(
                service: service, company: company, manufacturerData: manufacturerData, serviceData: serviceData,
                nameSubstring: nameSubstring, nameIgnoresCase: ignoringCase, range: range))
    }

    /// `true` if `advertisement` passes the filter.
    public func matches(_ advertisement: Advertisement) -> Bool {
        switch self {
        case .descriptor(let descriptor): descriptor.matches(advertisement)
        case .nameAndRange(let name, let ignoringCase, let range):
            DiscoveryDescriptor.matches(advertisement, nameSubstring: name, ignoringCase: ignoringCase, range: range)
        }
    }

    /// What is looked for, to follow "scanning": ` for <descriptor>`,
    /// ` for names containing "tag" (any case)`, or empty for everything.
    public var description: String {
        switch self {
        case .descriptor(let descriptor): " for \(descriptor)"
        case .nameAndRange(let name?, let ignoringCase, _): " for names containing \"\(name)\"\(ignoringCase ? " (any case)" : "")"
        case .nameAndRange(nil, _, _): ""
        }
    }
}
