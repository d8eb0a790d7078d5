import Ranging

extension RangingEvent {
    /// A zone change between zone indices of `map` (`nil`: no zone).
    static func change(_ from: Int?, _ to: Int?, at t: Double, map: ZoneMap = .standard) -> RangingEvent {
        .zoneChanged(
            from: from.map { ZoneRef(index: $0, name: map.zones[$0].name) },
            to: to.map { ZoneRef(index: $0, name: map.zones[$0].name) }, at: t)
    }

    /// `lost` while in zone `zone` of `map`.
    static func lostIn(_ zone: Int?, at t: Double, map: ZoneMap = .standard) -> RangingEvent {
        .lost(at: t, zone: zone.map { ZoneRef(index: $0, name: map.zones[$0].name) })
    }

    /// The zone entered, if this is a change into a zone.
    var enteredZone: Int? {
        if case .zoneChanged(_, let to?, _) = self { return to.index }
        return nil
    }
}
