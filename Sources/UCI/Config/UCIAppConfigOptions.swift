import NearbyBase

/// The RANGING_ROUND_CONTROL app configuration (0x0C): which messages and phases a ranging round
/// has. Typical values: `0x03` (result report message + control message) and `0x06`.
public struct UCIRangingRoundControl: OptionSet, Sendable, Hashable, CustomStringConvertible {
    /// The wire bits.
    public var rawValue: UInt8
    /// Creates the option set from its wire bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Bit 0, RRRM: the initiator sends a ranging result report message.
    public static let resultReportMessage = UCIRangingRoundControl(rawValue: 1 << 0)
    /// Bit 1, CM: a control message is sent (FiRa requires it to be 1).
    public static let controlMessage = UCIRangingRoundControl(rawValue: 1 << 1)
    /// Bit 2, RCP: the round has a ranging control phase.
    public static let rangingControlPhase = UCIRangingRoundControl(rawValue: 1 << 2)
    /// Bit 6, MRP: the round has a measurement report phase.
    public static let measurementReportPhase = UCIRangingRoundControl(rawValue: 1 << 6)
    /// Bit 7, MRM: measurement report message from the controlee.
    public static let measurementReportMessage = UCIRangingRoundControl(rawValue: 1 << 7)

    /// `"0x03 (RRRM, CM)"`.
    public var description: String {
        let names = [(0, "RRRM"), (1, "CM"), (2, "RCP"), (6, "MRP"), (7, "MRM")]
            .filter { rawValue & (1 << $0.0) != 0 }.map(\.1)
        let other = rawValue & ~0b1100_0111
        return "\(Hex.prefixed(rawValue)) (\((names + (other != 0 ? ["RFU bits \(Hex.prefixed(other))"] : [])).joined(separator: ", ")))"
    }
}

/// The RESULT_REPORT_CONFIG app configuration (0x2E): which results the UWBS reports.
public struct UCIResultReportConfig: OptionSet, Sendable, Hashable, CustomStringConvertible {
    /// The wire bits.
    public var rawValue: UInt8
    /// Creates the option set from its wire bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Bit 0: time of flight (distance).
    public static let timeOfFlight = UCIResultReportConfig(rawValue: 1 << 0)
    /// Bit 1: angle of arrival, azimuth.
    public static let aoaAzimuth = UCIResultReportConfig(rawValue: 1 << 1)
    /// Bit 2: angle of arrival, elevation.
    public static let aoaElevation = UCIResultReportConfig(rawValue: 1 << 2)
    /// Bit 3: figure of merit of the angles.
    public static let aoaFigureOfMerit = UCIResultReportConfig(rawValue: 1 << 3)

    /// `"0x0B (ToF, azimuth, FoM)"`.
    public var description: String {
        let names = [(0, "ToF"), (1, "azimuth"), (2, "elevation"), (3, "FoM")]
            .filter { rawValue & (1 << $0.0) != 0 }.map(\.1)
        let other = rawValue & 0xF0
        return "\(Hex.prefixed(rawValue)) (\((names + (other != 0 ? ["RFU bits \(Hex.prefixed(other))"] : [])).joined(separator: ", ")))"
    }
}

/// The AOA_BOUND_CONFIG app configuration (0x1D): the angle window used by the AoA triggers of
/// SESSION_INFO_NTF_CONFIG. Four Q9.7 angles in degrees.
public struct UCIAoABounds: Sendable, Hashable, CustomStringConvertible {
    /// Lower azimuth bound.
    public var minimumAzimuth: UCIAngle
    /// Upper azimuth bound.
    public var maximumAzimuth: UCIAngle
    /// Lower elevation bound.
    public var minimumElevation: UCIAngle
    /// Upper elevation bound.
    public var maximumElevation: UCIAngle

    /// Creates bounds from four angles.
    public init(minimumAzimuth: UCIAngle, maximumAzimuth: UCIAngle, minimumElevation: UCIAngle, maximumElevation: UCIAngle) {
        self.minimumAzimuth = minimumAzimuth
        self.maximumAzimuth = maximumAzimuth
        self.minimumElevation = minimumElevation
        self.maximumElevation = maximumElevation
    }

    /// `"azimuth -60.0°...60.0°, elevation -30.0°...30.0°"`.
    public var description: String {
        "azimuth \(minimumAzimuth)...\(maximumAzimuth), elevation \(minimumElevation)...\(maximumElevation)"
    }
}

/// The UWB_INITIATION_TIME app configuration (0x2B): when the first ranging round starts.
///
/// UCI 1.1 has a 4-byte time in milliseconds after SESSION_START; UCI 2.0 has an 8-byte absolute
/// time in microseconds on the UWBS clock (see CORE_QUERY_UWBS_TIMESTAMP). The form is chosen by
/// the TLV length when decoding and kept, so a value round-trips byte-exact.
public enum UCIInitiationTime: Sendable, Hashable, CustomStringConvertible {
    /// UCI 1.1: milliseconds after SESSION_START (4 bytes).
    case relative(milliseconds: UInt32)
    /// UCI 2.0: absolute UWBS time in microseconds (8 bytes).
    case absolute(microseconds: UInt64)

    /// `"100 ms after start"` or `"at 123456 µs UWBS time"`.
    public var description: String {
        switch self {
        case .relative(let ms): "\(ms) ms after start"
        case .absolute(let us): "at \(us) µs UWBS time"
        }
    }
}
