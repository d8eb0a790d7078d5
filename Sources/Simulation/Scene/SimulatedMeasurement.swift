public import Ranging

/// One simulated ranging round between two devices: the truth, and what the UWB subsystem
/// reports.
///
/// A failed round (``status`` `0x21` RX_TIMEOUT) carries no distance, angles, FoM or RSSI. A
/// valid one carries the noisy distance (metres; a negative value has status `0x1B`, as UCI 2.0
/// reports it), noisy angles when the model reports them, their figures of merit, the NLoS flag
/// as the subsystem would report it, and RSSI.
public struct SimulatedMeasurement: Sendable, Hashable {
    /// UCI status RX_TIMEOUT: the round produced no measurement.
    public static let statusRXTimeout: UInt8 = 0x21

    /// Time of the round, seconds (the scene's clock).
    public var time: Double
    /// True geometry of the target seen from the observer.
    public var truth: RelativeGeometry
    /// True channel condition: `true` during a non-line-of-sight burst.
    public var isNonLineOfSightTruth: Bool
    /// `true` if the reported distance is a gross outlier (ground truth for robustness metrics).
    public var isOutlier: Bool
    /// UCI measurement status: `0x00` OK, `0x1B` OK with negative distance, `0x21` RX timeout.
    public var status: UInt8
    /// Reported distance, metres.
    public var distance: Double?
    /// Reported azimuth, degrees, -180 ..< 180, positive right.
    public var azimuth: Double?
    /// Reported elevation, degrees, -90 ... 90, positive up.
    public var elevation: Double?
    /// Figure of merit of the azimuth, 0-100.
    public var azimuthFigureOfMerit: UInt8?
    /// Figure of merit of the elevation, 0-100.
    public var elevationFigureOfMerit: UInt8?
    /// NLoS flag as reported (the subsystem's detector can miss or invent it).
    public var reportedNonLineOfSight: Bool?
    /// Reported RSSI, dBm (-127.5 ... 0, in 0.5 dB steps as UCI's Q7.1 carries it).
    public var rssi: Double?

    /// Creates a measurement (seconds, metres, degrees, dBm).
    public init(
        time: Double, truth: RelativeGeometry, isNonLineOfSightTruth: Bool, isOutlier: Bool, status: UInt8,
        distance: Double?, azimuth: Double?, elevation: Double?, azimuthFigureOfMerit: UInt8?,
        elevationFigureOfMerit: UInt8?, reportedNonLineOfSight: Bool?, rssi: Double?
    ) {
        self.time = time
        self.truth = truth
        self.isNonLineOfSightTruth = isNonLineOfSightTruth
        self.isOutlier = isOutlier
        self.status = status
        self.distance = distance
        self.azimuth = azimuth
        self.elevation = elevation
        self.azimuthFigureOfMerit = azimuthFigureOfMerit
        self.elevationFigureOfMerit = elevationFigureOfMerit
        self.reportedNonLineOfSight = reportedNonLineOfSight
        self.rssi = rssi
    }

    /// `true` if the round produced a measurement (status `0x00` or `0x1B`).
    public var isValid: Bool { status == RangeSample.statusOK || status == RangeSample.statusNegativeDistance }

    /// The measurement as the ranging pipeline's input, stamped with `timestamp` (seconds on
    /// the caller's clock). The sample's figure of merit is the azimuth's (UCI has no distance
    /// FoM), or the elevation's when only that exists.
    public func rangeSample(timestamp: Double) -> RangeSample {
        RangeSample(
            timestamp: timestamp, distance: distance, azimuth: azimuth, elevation: elevation,
            figureOfMerit: azimuthFigureOfMerit ?? elevationFigureOfMerit, isNonLineOfSight: reportedNonLineOfSight,
            rssi: rssi, status: status)
    }

    /// The values a UWB subsystem puts in a SESSION_INFO_NTF two-way-ranging measurement, in
    /// UCI's units before encoding (the virtual UWBS encodes Q9.7 angles and Q7.1 RSSI itself).
    public var uciFields: UCIMeasurementFields {
        UCIMeasurementFields(
            status: status,
            nonLineOfSight: reportedNonLineOfSight == true ? 1 : 0,
            distanceCentimetres: distance.map { UInt16(SceneMath.clamp((abs($0) * 100).rounded(), 0...65535)) } ?? 0,
            azimuthDegrees: azimuth ?? 0,
            azimuthFigureOfMerit: azimuthFigureOfMerit ?? 0,
            elevationDegrees: elevation ?? 0,
            elevationFigureOfMerit: elevationFigureOfMerit ?? 0,
            rssiDBm: rssi ?? 0)
    }
}
