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

/// One two-way-ranging measurement in the units of a UCI SESSION_INFO_NTF, before encoding.
///
/// Fields a failed round or a missing antenna does not produce are 0, as UWB subsystems send
/// them. The encoder turns angles into i16 Q9.7 (`Int16((degrees * 128).rounded())`, always in
/// range since angles are within ±180°) and RSSI into u8 Q7.1 of -dBm (`UInt8(-rssiDBm * 2)`;
/// RSSI is within -127.5 ... 0 dBm).
public struct UCIMeasurementFields: Sendable, Hashable {
    /// Measurement status (`0x00`, `0x1B` negative distance, `0x21` RX timeout).
    public var status: UInt8
    /// NLoS byte: 0 line of sight, 1 non-line-of-sight.
    public var nonLineOfSight: UInt8
    /// Distance in centimetres (the magnitude when status is `0x1B`).
    public var distanceCentimetres: UInt16
    /// Azimuth in degrees, -180 ..< 180, positive right.
    public var azimuthDegrees: Double
    /// Azimuth figure of merit, 0-100.
    public var azimuthFigureOfMerit: UInt8
    /// Elevation in degrees, -90 ... 90, positive up.
    public var elevationDegrees: Double
    /// Elevation figure of merit, 0-100.
    public var elevationFigureOfMerit: UInt8
    /// RSSI in dBm, -127.5 ... 0.
    public var rssiDBm: Double

    /// The azimuth as UCI's i16 Q9.7 (degrees × 128, rounded).
    public var azimuthQ9_7: Int16 { Self.q9_7(azimuthDegrees) }
    /// The elevation as UCI's i16 Q9.7 (degrees × 128, rounded).
    public var elevationQ9_7: Int16 { Self.q9_7(elevationDegrees) }
    /// The RSSI as UCI's u8 Q7.1 of -dBm (-dBm × 2, rounded; -72 dBm → 0x90).
    public var rssiQ7_1: UInt8 { UInt8(SceneMath.clamp((-rssiDBm * 2).rounded(), 0...255)) }

    private static func q9_7(_ degrees: Double) -> Int16 {
        Int16(SceneMath.clamp((degrees * 128).rounded(), -32768...32767))
    }

    /// Creates the fields (centimetres, degrees, dBm).
    public init(
        status: UInt8, nonLineOfSight: UInt8, distanceCentimetres: UInt16, azimuthDegrees: Double,
        azimuthFigureOfMerit: UInt8, elevationDegrees: Double, elevationFigureOfMerit: UInt8, rssiDBm: Double
    ) {
        self.status = status
        self.nonLineOfSight = nonLineOfSight
        self.distanceCentimetres = distanceCentimetres
        self.azimuthDegrees = azimuthDegrees
        self.azimuthFigureOfMerit = azimuthFigureOfMerit
        self.elevationDegrees = elevationDegrees
        self.elevationFigureOfMerit = elevationFigureOfMerit
        self.rssiDBm = rssiDBm
    }
}
