/// How ``AccessoryFusion`` weighs, tracks and decides (specs/house.md, "Fusion").
public struct FusionParameters: Sendable, Hashable {
    /// Seconds without any host hearing the accessory before it is `not_home` (`[house]
    /// away_after`).
    public var awayAfter: Double = 30
    /// Room hysteresis: metres the position must be inside a new room (or outside every room)
    /// before the room changes (`[house] room_margin`).
    public var roomMargin: Double = 0.25
    /// Seconds a new room must hold before it is taken (`[house] room_dwell`).
    public var roomDwell: Double = 0
    /// Height of a carried accessory above its floor, metres (`[house] tag_height`).
    public var tagHeight: Double = 1.0
    /// σ of a line-of-sight range, metres, plus ``rangeNoisePerMetre`` per metre.
    public var rangeNoise: Double = 0.06
    /// Growth of the range σ per metre of range.
    public var rangeNoisePerMetre: Double = 0.005
    /// σ of a range flagged NLoS, metres.
    public var nlosRangeNoise: Double = 0.35
    /// σ of an azimuth with figure of merit 100, degrees (divided by FoM/100, × 3 in NLoS).
    public var azimuthNoise: Double = 5
    /// Azimuths with a figure of merit below this are not used (front/back confusion).
    public var minimumAzimuthFigureOfMerit = 40
    /// Walking: spectral density of the acceleration noise is this squared, m²/s³.
    public var acceleration: Double = 1.6
    /// Time constant of the velocity relaxing to 0, seconds (`nil`: constant velocity).
    public var velocityDecay: Double? = 1.5
    /// A measurement is rejected beyond this many σ.
    public var gate: Double = 5
    /// Weights fall beyond this many σ (Huber).
    public var huber: Double = 2.5
    /// A report older than the track by more than this (seconds) is not used for the position.
    public var maximumAge: Double = 1.5
    /// Top walking speed, m/s: bounds how far the accessory can have moved since an old report.
    public var maximumSpeed: Double = 2
    /// Seconds without a position update after which the track starts over from the latest
    /// reports.
    public var restartAfter: Double = 3
    /// A range longer than predicted by this many σ (of the range and the track) counts as
    /// NLoS even when not flagged: NLoS only lengthens ranges.
    public var longRange: Double = 2
    /// Rejections in a row after which the track starts over.
    public var restartRejections = 4

    /// The defaults (specs/house.md).
    public init() {}

    /// What makes these parameters unusable, `nil` if they are fine.
    public var problem: String? {
        if !(awayAfter > 0) { return "away_after must be > 0 seconds" }
        if !(roomMargin >= 0) { return "room_margin must be ≥ 0 metres" }
        if !(roomDwell >= 0) { return "room_dwell must be ≥ 0 seconds" }
        if !(tagHeight.isFinite) { return "tag_height must be a number of metres" }
        return nil
    }
}
