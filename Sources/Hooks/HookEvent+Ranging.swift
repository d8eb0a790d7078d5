public import Ranging

extension HookEvent {
    /// The hook events of one ranging event, with no state to keep: a zone change carries both
    /// zones, `lost` the zone it happened in.
    ///
    /// | ranging event | hook events |
    /// |---|---|
    /// | `zoneChanged(from: A, to: B)` | `exit` A (previous A), then `enter` B (previous A) |
    /// | `zoneChanged(from: nil, to: B)` (first zone) | `enter` B (no previous) |
    /// | `zoneChanged(from: A, to: nil)` (lost) | `exit` A (previous A) |
    /// | `lost(zone: A)` | `lost` (previous A) |
    /// | `found` | `found` |
    ///
    /// - Parameters:
    ///   - event: the pipeline's event.
    ///   - accessoryName: display name, passed verbatim to hooks.
    ///   - accessoryID: stable identifier, passed verbatim to hooks.
    ///   - distance: smoothed distance in metres at the event (its sample's update), `nil` if unknown.
    ///   - timestamp: when the event happened, seconds since the Unix epoch.
    public static func events(
        for event: RangingEvent, accessoryName: String, accessoryID: String, distance: Double?, timestamp: Double
    ) -> [HookEvent] {
        func make(_ kind: HookTrigger, zone: ZoneRef?, previous: ZoneRef?) -> HookEvent {
            HookEvent(
                kind: kind, zone: zone?.name, previousZone: previous?.name, accessoryName: accessoryName,
                accessoryID: accessoryID, distance: distance, timestamp: timestamp)
        }
        switch event {
        case .zoneChanged(let from, let to, _):
            var events: [HookEvent] = []
            if let from { events.append(make(.exit, zone: from, previous: from)) }
            if let to { events.append(make(.enter, zone: to, previous: from)) }
            return events
        case .lost(_, let zone):
            return [make(.lost, zone: nil, previous: zone)]
        case .found:
            return [make(.found, zone: nil, previous: nil)]
        }
    }
}
