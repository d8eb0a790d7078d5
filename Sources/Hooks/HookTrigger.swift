/// The kind of ranging event a hook runs on; also the value of `NEARBY_EVENT`.
public enum HookTrigger: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The accessory entered a zone.
    case enter
    /// The accessory left a zone.
    case exit
    /// The accessory went silent for longer than the lost-after limit.
    case lost
    /// Usable measurements arrived: the first ever, or the first after `lost`.
    case found

    /// The raw value (`enter`, `exit`, `lost`, `found`).
    public var description: String { rawValue }

    /// `true` for the triggers that concern a zone (`enter`, `exit`).
    public var hasZone: Bool { self == .enter || self == .exit }
}
