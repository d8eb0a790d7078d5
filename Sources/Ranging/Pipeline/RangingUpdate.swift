/// What the ranging pipeline reports for one sample: the smoothed state of one accessory.
///
/// Every sample yields one update. While the accessory is not tracked (``state`` `waiting` or
/// `lost`) an update for an unusable sample carries no estimates (distance, direction, zone
/// `nil`, confidence 0).
public struct RangingUpdate: Sendable, Hashable {
    /// Time of the sample, seconds.
    public var timestamp: Double
    /// Smoothed distance in metres; `nil` if no distance was measured since tracking (re)started.
    public var distance: Double?
    /// Rate of change of the distance in m/s (positive = moving away); `nil` without a distance.
    /// From the filter's own model when it has one (Kalman, One-Euro), else from the smoothed
    /// distance through a 1 Hz low-pass differentiator.
    public var velocity: Double?
    /// Smoothed direction; `nil` if no azimuth was measured since tracking (re)started.
    public var direction: Direction?
    /// Confidence in the update, 0 ... 1: the sample's FoM / 100 (1 when unknown), halved for
    /// NLoS; for a held update it decays linearly to 0 over the silence limit.
    public var confidence: Double
    /// The current zone (index and name); `nil` until a distance is known.
    public var zone: ZoneRef?
    /// `true` if the sample carried no usable measurement (error status, no values) and the
    /// values are the last estimate, held.
    public var isHeld: Bool
    /// The tracking state after this sample.
    public var state: TrackingState
    /// The raw sample this update came from.
    public var sample: RangeSample
    /// What this sample caused, in order, before the update's values: `lost` and the zone
    /// cleared (after a silence nobody checked), `found`, a zone change.
    public var events: RangingEvents

    /// Creates an update (the pipeline does this; public for tests and replays).
    public init(
        timestamp: Double, distance: Double?, velocity: Double?, direction: Direction?, confidence: Double,
        zone: ZoneRef?, isHeld: Bool, state: TrackingState, sample: RangeSample, events: RangingEvents = RangingEvents()
    ) {
        self.timestamp = timestamp
        self.distance = distance
        self.velocity = velocity
        self.direction = direction
        self.confidence = confidence
        self.zone = zone
        self.isHeld = isHeld
        self.state = state
        self.sample = sample
        self.events = events
    }
}
