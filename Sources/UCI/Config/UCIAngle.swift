import NearbyBase

/// An angle as UCI reports it: a signed 16-bit Q9.7 fixed-point number of degrees (1/128°
/// steps, -256° ..< 256°).
///
/// Used for azimuth and elevation in SESSION_INFO_NTF and for AOA_BOUND_CONFIG.
public struct UCIAngle: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The wire value: degrees × 128, as a signed 16-bit integer.
    public var rawValue: Int16

    /// Creates an angle from its wire value.
    @inlinable public init(rawValue: Int16) { self.rawValue = rawValue }

    /// Creates an angle from its unsigned wire bits (two's complement).
    @inlinable public init(bits: UInt16) { rawValue = Int16(bitPattern: bits) }

    /// Creates an angle from degrees, rounded to the nearest 1/128° and clamped to the
    /// representable range (-256° ... 255.9921875°); NaN gives 0°.
    public init(degrees: Double) {
        let scaled = degrees * 128
        if scaled.isNaN {
            rawValue = 0
        } else if scaled >= Double(Int16.max) {
            rawValue = .max
        } else if scaled <= Double(Int16.min) {
            rawValue = .min
        } else {
            rawValue = Int16(DecimalText.roundedInteger(scaled) ?? 0)
        }
    }

    /// The angle in degrees (`rawValue / 128`).
    @inlinable
    public var degrees: Double { Double(rawValue) / 128 }

    /// The unsigned wire bits (two's complement).
    public var bits: UInt16 { UInt16(bitPattern: rawValue) }

    /// `"-30.0°"` (exact: a Q9.7 value has at most 7 decimals).
    public var description: String { "\(degrees)°" }
}
