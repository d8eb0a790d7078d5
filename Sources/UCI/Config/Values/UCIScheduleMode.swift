/// The SCHEDULE_MODE app configuration (0x22).
///
/// Unknown raw values are kept (never trapping); ``name`` is `nil` for them.
public struct UCIScheduleMode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The wire value.
    public let rawValue: UInt8

    /// Creates a schedule mode from its wire value.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// CONTENTION_BASED (0x00): contention-based ranging.
    public static let contentionBased = UCIScheduleMode(rawValue: 0x00)
    /// TIME_SCHEDULED (0x01): time-scheduled ranging.
    public static let timeScheduled = UCIScheduleMode(rawValue: 0x01)

    /// The specification's name (`"TIME_SCHEDULED"`), or `nil` for a value without one.
    public var name: String? {
        switch rawValue {
        case 0x00: "CONTENTION_BASED"
        case 0x01: "TIME_SCHEDULED"
        default: nil
        }
    }

    /// What the value means, in words.
    public var explanation: String {
        switch rawValue {
        case 0x00: "contention-based ranging"
        case 0x01: "time-scheduled ranging"
        default: "reserved schedule mode"
        }
    }

    /// `"TIME_SCHEDULED (0x01)"`; values without a name are described by ``explanation``.
    public var description: String { codeDescription(name ?? explanation, rawValue) }
}
