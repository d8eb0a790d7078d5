public import Ranging

/// Turns one accessory's `RangingEvent`s into ``HookEvent``s: zone numbers become names, and the
/// previous zone is tracked across events (the pipeline reports `exited(old)` then
/// `entered(new)` for one transition).
///
/// Keep one builder per accessory (next to its `RangingPipeline`) and feed it every event the
/// pipeline emits, in order:
///
/// ```swift
/// var builder = HookEventBuilder(accessoryName: "tag", accessoryID: "F0:12:…", zones: pipeline.zones)
/// var events: [RangingEvent] = []
/// let update = pipeline.process(sample) { events.append($0) }
/// for event in builder.events(for: events, distance: update.distance) { runner.submit(event) }
/// ```
public struct HookEventBuilder: Sendable {
    /// The accessory's display name (``HookEvent/accessoryName``).
    public var accessoryName: String
    /// The accessory's identifier (``HookEvent/accessoryID``).
    public var accessoryID: String
    /// The zone map whose names the events carry.
    public let zones: ZoneMap
    private var current: Int?
    private var justLeft: Int?

    /// Creates a builder for one accessory.
    /// - Parameters:
    ///   - accessoryName: display name, passed verbatim to hooks.
    ///   - accessoryID: stable identifier, passed verbatim to hooks.
    ///   - zones: the pipeline's zone map.
    public init(accessoryName: String, accessoryID: String, zones: ZoneMap) {
        self.accessoryName = accessoryName
        self.accessoryID = accessoryID
        self.zones = zones
    }

    /// The hook event for `event`.
    /// - Parameters:
    ///   - event: the next event of this accessory's pipeline.
    ///   - distance: smoothed distance in metres at the event (the update's), `nil` if unknown.
    ///   - timestamp: seconds since the Unix epoch (default: now).
    public mutating func event(for event: RangingEvent, distance: Double?, timestamp: Double = HookEvent.now()) -> HookEvent {
        let kind: HookTrigger
        var zone: String?
        var previous: String?
        switch event {
        case .entered(let index, _):
            kind = .enter
            zone = name(index)
            previous = justLeft.map(name)
            current = index
            justLeft = nil
        case .exited(let index, _):
            kind = .exit
            zone = name(index)
            previous = zone
            current = nil
            justLeft = index
        case .lost:
            kind = .lost
            previous = current.map(name)
            justLeft = nil
        case .found:
            kind = .found
            justLeft = nil
        }
        return HookEvent(
            kind: kind, zone: zone, previousZone: previous, accessoryName: accessoryName, accessoryID: accessoryID,
            distance: distance, timestamp: timestamp)
    }

    /// The hook events for several events of one sample, in order (see ``event(for:distance:timestamp:)``).
    public mutating func events(
        for events: some Sequence<RangingEvent>, distance: Double?, timestamp: Double = HookEvent.now()
    ) -> [HookEvent] {
        events.map { event(for: $0, distance: distance, timestamp: timestamp) }
    }

    private func name(_ index: Int) -> String {
        zones.zones.indices.contains(index) ? zones.zones[index].name : "zone\(index)"
    }
}
