/// How a UWBS encodes the angle and RSSI fields of its measurements.
///
/// FiRa (every dev kit we support): angles are signed Q9.7 degrees (raw / 128), RSSI is Q7.1 of
/// −dBm (−raw / 2) with 0 meaning not reported. google/pica, the public UCI emulator, writes
/// angles as whole degrees and RSSI as 0xFF (`make_measurement` in its `src/lib.rs`), so a FiRa decoder reads its
/// angles 128 times too small: talking to pica, select ``pica``.
public enum UCIMeasurementDialect: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// FiRa UCI: Q9.7 degrees, RSSI Q7.1 of −dBm (0 = not reported).
    case fira
    /// google/pica: whole degrees, RSSI 0xFF = not reported.
    case pica

    /// An angle field in degrees.
    @inlinable
    public func degrees(_ raw: Int16) -> Double {
        switch self {
        case .fira: Double(raw) / 128
        case .pica: Double(raw)
        }
    }

    /// An RSSI field in dBm, `nil` when not reported (FiRa 0, pica 0xFF).
    @inlinable
    public func rssi(_ raw: UInt8) -> Double? {
        switch self {
        case .fira: raw == 0 ? nil : -Double(raw) / 2
        case .pica: raw == 0xFF || raw == 0 ? nil : -Double(raw) / 2
        }
    }

    /// `fira` or `pica`.
    public var description: String { rawValue }
}
