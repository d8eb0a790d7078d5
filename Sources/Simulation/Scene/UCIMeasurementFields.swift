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
