/// One raw two-way-ranging measurement of one peer, as a UWB subsystem reports it.
///
/// All values are optional because real measurements miss fields: a device without an antenna
/// array reports no angles, a failed round reports no distance, traces lack FoM. `status` is the
/// UCI measurement status: `0` means the measurement is valid; any other value means the round
/// produced no usable measurement (see ``isValid``). UCI status `0x1B` (distance is negative)
/// is reported as a valid measurement with a negative ``distance``.
///
/// `RangeSample` is a plain value (no references), so a pipeline that processes it allocates
/// nothing.
public struct RangeSample: Sendable, Hashable {
    /// Time of the measurement in seconds on a monotonic clock (any origin; traces start at 0).
    public var timestamp: Double
    /// Measured distance in metres, `nil` if the round produced none.
    public var distance: Double?
    /// Azimuth of the peer in degrees, -180 ..< 180 (positive = to the right), `nil` if unknown.
    public var azimuth: Double?
    /// Elevation of the peer in degrees, -90 ... 90 (positive = up), `nil` if unknown.
    public var elevation: Double?
    /// Figure of merit (confidence) of the measurement, 0 ... 100, `nil` if unknown.
    public var figureOfMerit: UInt8?
    /// `true` if the UWB subsystem flagged the path as non-line-of-sight, `nil` if unknown.
    public var isNonLineOfSight: Bool?
    /// Received signal strength in dBm, `nil` if unknown.
    public var rssi: Double?
    /// UCI measurement status; `0` = valid measurement, `0x1B` = valid with negative distance,
    /// anything else = no measurement (for example `0x21` RX timeout).
    public var status: UInt8

    /// Creates a sample. Units: seconds, metres, degrees, dBm.
    public init(
        timestamp: Double,
        distance: Double? = nil,
        azimuth: Double? = nil,
        elevation: Double? = nil,
        figureOfMerit: UInt8? = nil,
        isNonLineOfSight: Bool? = nil,
        rssi: Double? = nil,
        status: UInt8 = 0
    ) {
        self.timestamp = timestamp
        self.distance = distance
        self.azimuth = azimuth
        self.elevation = elevation
        self.figureOfMerit = figureOfMerit
        self.isNonLineOfSight = isNonLineOfSight
        self.rssi = rssi
        self.status = status
    }

    /// UCI status "OK".
    public static let statusOK: UInt8 = 0x00
    /// UCI status "OK, distance is negative" (UCI 2.0).
    public static let statusNegativeDistance: UInt8 = 0x1B

    /// `true` if the measurement status says the round produced a measurement.
    @inlinable
    public var isValid: Bool {
        status == Self.statusOK || status == Self.statusNegativeDistance
    }

    // The one rule for a usable sample, used by the pipeline, the sessions, the summaries and the
    // screens: the status is valid and the value is a finite number. Non-finite values count as
    // missing.

    /// The distance if the sample is valid and the distance finite, else `nil`.
    @inlinable
    public var usableDistance: Double? {
        guard isValid, let distance, distance.isFinite else { return nil }
        return distance
    }

    /// The azimuth if the sample is valid and the azimuth finite, else `nil`.
    @inlinable
    public var usableAzimuth: Double? {
        guard isValid, let azimuth, azimuth.isFinite else { return nil }
        return azimuth
    }

    /// The elevation if the sample is valid and the elevation finite, else `nil`.
    @inlinable
    public var usableElevation: Double? {
        guard isValid, let elevation, elevation.isFinite else { return nil }
        return elevation
    }

    /// `true` if the sample carries a usable distance, azimuth or elevation: it feeds the filters
    /// and keeps the accessory tracked. Otherwise (an error status, or no finite value) it only
    /// holds the last estimates.
    @inlinable
    public var isUsable: Bool { usableDistance != nil || usableAzimuth != nil || usableElevation != nil }
}
