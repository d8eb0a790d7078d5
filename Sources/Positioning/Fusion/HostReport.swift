/// What one host says about one accessory (its retained `state`, understood): the input of
/// ``AccessoryFusion``.
public struct HostReport: Sendable, Hashable {
    /// The host's name (as in the ``HousePlan``).
    public var host: String
    /// When, seconds (the state's `time` on the watcher's clock, skew removed).
    public var time: Double
    /// `true` while the host tracks the accessory (`tracking` = `tracking`).
    public var tracking: Bool
    /// The last measured range, metres (`raw_distance_m`), else `nil`.
    public var range: Double?
    /// The host's smoothed range, metres (`distance_m`): used when there is no measured one.
    public var smoothedRange: Double?
    /// Azimuth, degrees, positive to the right of the kit's boresight (`azimuth_deg`).
    public var azimuth: Double?
    /// Figure of merit of the last sample, 0 ... 100 (`figure_of_merit`).
    public var figureOfMerit: Int?
    /// The host flagged the last sample non-line-of-sight (`nlos`).
    public var nonLineOfSight: Bool
    /// When the host last measured the accessory (`last_seen`), seconds; `nil`: unknown.
    public var lastSeen: Double?

    /// A report.
    public init(
        host: String, time: Double, tracking: Bool, range: Double? = nil, smoothedRange: Double? = nil, azimuth: Double? = nil,
        figureOfMerit: Int? = nil, nonLineOfSight: Bool = false, lastSeen: Double? = nil
    ) {
        self.host = host
        self.time = time
        self.tracking = tracking
        self.range = range
        self.smoothedRange = smoothedRange
        self.azimuth = azimuth
        self.figureOfMerit = figureOfMerit
        self.nonLineOfSight = nonLineOfSight
        self.lastSeen = lastSeen
    }

    /// The range to use: measured, else smoothed.
    public var usableRange: Double? { range ?? smoothedRange }
}

/// Whether the accessory is at home.
public enum Presence: String, Sendable, Hashable {
    /// A host heard it less than `away_after` seconds ago.
    case home
    /// No host has heard it for `away_after` seconds (Home Assistant's `not_home`).
    case notHome = "not_home"
}

/// The fused state of an accessory (what `nearby/house/<accessory>/position` carries).
public struct FusedPosition: Sendable, Hashable {
    /// Time of the estimate, seconds (that of the last report used, or when it became away).
    public var time: Double
    /// The position, `nil` before the first or once away.
    public var point: PlanePoint?
    /// Velocity, m/s.
    public var velocity: PlanePoint?
    /// Its floor.
    public var floor: Int?
    /// The room (with hysteresis), `nil` in no room.
    public var room: String?
    /// Two standard deviations along the least certain direction, metres.
    public var accuracy: Double?
    /// The hosts whose reports the position used in the last ``FusionParameters/maximumAge``
    /// seconds, by name.
    public var hosts: [String]
    /// Home or not.
    public var presence: Presence

    /// The device tracker's state: the room, `home` when in no room, `not_home` when away.
    public var trackerState: String {
        presence == .notHome ? Presence.notHome.rawValue : (room ?? Presence.home.rawValue)
    }
}

/// What one call to ``AccessoryFusion`` changed.
public struct FusionChange: Sendable, Hashable {
    /// The position moved (a new estimate).
    public var position = false
    /// The room changed (`from` → ``FusedPosition/room``).
    public var room = false
    /// The room before, when ``room``.
    public var previousRoom: String?
    /// Home ↔ not_home.
    public var presence = false
    /// The track started over (a jump, a long silence).
    public var restarted = false

    /// Nothing changed.
    public var isEmpty: Bool { !position && !room && !presence }
}
