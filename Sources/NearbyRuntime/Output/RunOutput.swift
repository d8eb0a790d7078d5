public import Hooks
public import NIProtocol
public import NearbyInteraction
public import Ranging
import UWBDevice

/// What a run knows before the first event: who ranges, the zones and the clocks.
public struct RunContext: Sendable {
    /// The accessories announced at the start, in order (more may appear with their events).
    public var accessories: [AccessoryIdentity]
    /// The zones of the run.
    public var zones: ZoneMap
    /// Time zero of the run on the events' clock (seconds: `MonotonicTime` for live
    /// and simulated runs, the first sample's time for a replay).
    public var start: Double
    /// The wall clock at ``start``, seconds since the Unix epoch (UTC).
    public var wallStart: Double
    /// Seconds on the events' clock per real second: 1 for live runs and replays, the speed of
    /// a simulation (`nearby demo --speed 10`: the scene's clock runs ten times faster than
    /// the wall clock, so ten event seconds are one wall-clock second).
    public var timeScale: Double

    /// Creates a context.
    /// - Parameters:
    ///   - accessories: the run's accessories, in order.
    ///   - zones: the zone map the run uses.
    ///   - start: time zero of the run on the events' clock (seconds).
    ///   - wallStart: the wall clock at `start`, seconds since the Unix epoch (UTC).
    ///   - timeScale: event seconds per real second (> 0; anything else counts as 1).
    public init(accessories: [AccessoryIdentity], zones: ZoneMap, start: Double, wallStart: Double, timeScale: Double = 1) {
        self.accessories = accessories
        self.zones = zones
        self.start = start
        self.wallStart = wallStart
        self.timeScale = timeScale > 0 && timeScale.isFinite ? timeScale : 1
    }

    /// A context starting now: the events' clock is `MonotonicTime` (live and
    /// simulated runs), the wall clock is the system's.
    /// - Parameters:
    ///   - accessories: the run's accessories, in order.
    ///   - zones: the zone map the run uses.
    ///   - timeScale: event seconds per real second (a simulation's speed).
    public init(accessories: [AccessoryIdentity], zones: ZoneMap, timeScale: Double = 1) {
        self.init(accessories: accessories, zones: zones, start: MonotonicTime.seconds(), wallStart: WallClock.now(), timeScale: timeScale)
    }

    /// Seconds since the start of the run for an event time (never negative).
    public func elapsed(_ time: Double) -> Double { max(0, time - start) }

    /// The wall-clock time (seconds since the Unix epoch) of an event time: what hooks see in
    /// `NEARBY_TIMESTAMP`, the event's own time rather than when it was handled. In a faster
    /// simulation it is when the event really happened (event seconds divided by
    /// ``timeScale``), so it never runs ahead of the system clock; ``elapsed(_:)`` stays in the
    /// scene's seconds.
    public func wallClock(_ time: Double) -> Double { wallStart + (time - start) / timeScale }

    /// The event time of a wall-clock time (the inverse of ``wallClock(_:)``).
    public func eventTime(wallClock wall: Double) -> Double { start + (wall - wallStart) * timeScale }
}

/// Where a run's events go: the screen, JSON lines, a trace file, MQTT, a web view.
///
/// A ``RangingRun`` calls its outputs one at a time (never two calls at once), in event order;
/// a call must not block (queue slow work). Every method has an empty default.
public protocol RunOutput: AnyObject, Sendable {
    /// Before the first event.
    func runStarted(_ context: RunContext)
    /// One session event: state changes, configurations, updates (carrying the zone changes,
    /// `lost` and `found` they caused in `RangingUpdate.events`), silence events,
    /// retries, drops, errors. `status` is the accessory's status after the event.
    func handle(_ event: NearbySessionEvent, status: AccessoryStatus?)
    /// A zone-trigger hook finished (or could not start); `time` on the events' clock.
    func hookFinished(_ outcome: HookOutcome, at time: Double)
    /// A note for people (what the run does, a problem it recovered from).
    func note(_ text: String)
    /// The events that arrived together were handled: write what was gathered (one `write(2)`
    /// per burst, not per line).
    func flush()
    /// After the last event, with the summary; the run waits for it (flush, close files).
    func runFinished(_ summary: RunSummary) async
}

extension RunOutput {
    public func runStarted(_ context: RunContext) {}
    public func handle(_ event: NearbySessionEvent, status: AccessoryStatus?) {}
    public func hookFinished(_ outcome: HookOutcome, at time: Double) {}
    public func note(_ text: String) {}
    public func flush() {}
    public func runFinished(_ summary: RunSummary) async {}
}
