/// The per-controlee result of a multicast-list update (SESSION_UPDATE_CONTROLLER_MULTICAST_LIST
/// response in UCI 2.0, notification in both versions). Numbering as in AOSP; pica numbers 0x05-0x07
/// one higher and has no ADDRESS_NOT_FOUND.
///
/// Unknown raw values are kept (never trapping); ``name`` is `nil` for them.
public struct UCIMulticastUpdateStatus: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The wire value.
    public let rawValue: UInt8

    /// Creates a status from its wire value.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// OK_MULTICAST_LIST_UPDATE (0x00): the controlee was added or removed.
    public static let ok = UCIMulticastUpdateStatus(rawValue: 0x00)
    /// ERROR_MULTICAST_LIST_FULL (0x01): the controlee list is full.
    public static let listFull = UCIMulticastUpdateStatus(rawValue: 0x01)
    /// ERROR_KEY_FETCH_FAIL (0x02): the key could not be fetched.
    public static let keyFetchFailed = UCIMulticastUpdateStatus(rawValue: 0x02)
    /// ERROR_SUB_SESSION_ID_NOT_FOUND (0x03): the sub-session ID was not found.
    public static let subSessionIDNotFound = UCIMulticastUpdateStatus(rawValue: 0x03)
    /// ERROR_SUB_SESSION_KEY_NOT_FOUND (0x04): the sub-session key was not found.
    public static let subSessionKeyNotFound = UCIMulticastUpdateStatus(rawValue: 0x04)
    /// ERROR_SUB_SESSION_KEY_NOT_APPLICABLE (0x05): a sub-session key does not apply to this session.
    public static let subSessionKeyNotApplicable = UCIMulticastUpdateStatus(rawValue: 0x05)
    /// ERROR_SESSION_KEY_NOT_FOUND (0x06): the session key was not found.
    public static let sessionKeyNotFound = UCIMulticastUpdateStatus(rawValue: 0x06)
    /// ERROR_ADDRESS_NOT_FOUND (0x07): the address is not in the list.
    public static let addressNotFound = UCIMulticastUpdateStatus(rawValue: 0x07)
    /// ERROR_ADDRESS_ALREADY_PRESENT (0x08): the address is already in the list.
    public static let addressAlreadyPresent = UCIMulticastUpdateStatus(rawValue: 0x08)

    /// The specification's name (`"ERROR_MULTICAST_LIST_FULL"`), or `nil` for a value without one.
    public var name: String? {
        switch rawValue {
        case 0x00: "OK_MULTICAST_LIST_UPDATE"
        case 0x01: "ERROR_MULTICAST_LIST_FULL"
        case 0x02: "ERROR_KEY_FETCH_FAIL"
        case 0x03: "ERROR_SUB_SESSION_ID_NOT_FOUND"
        case 0x04: "ERROR_SUB_SESSION_KEY_NOT_FOUND"
        case 0x05: "ERROR_SUB_SESSION_KEY_NOT_APPLICABLE"
        case 0x06: "ERROR_SESSION_KEY_NOT_FOUND"
        case 0x07: "ERROR_ADDRESS_NOT_FOUND"
        case 0x08: "ERROR_ADDRESS_ALREADY_PRESENT"
        default: nil
        }
    }

    /// What the value means, in words.
    public var explanation: String {
        switch rawValue {
        case 0x00: "the controlee was added or removed"
        case 0x01: "the controlee list is full"
        case 0x02: "the key could not be fetched"
        case 0x03: "the sub-session ID was not found"
        case 0x04: "the sub-session key was not found"
        case 0x05: "a sub-session key does not apply to this session"
        case 0x06: "the session key was not found"
        case 0x07: "the address is not in the list"
        case 0x08: "the address is already in the list"
        default: "reserved multicast update status"
        }
    }

    /// `"ERROR_MULTICAST_LIST_FULL (0x01)"`; values without a name are described by ``explanation``.
    public var description: String { codeDescription(name ?? explanation, rawValue) }
}
