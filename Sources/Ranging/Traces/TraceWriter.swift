/// Writes samples as lines of the CSV trace format (`specs/trace-format.md`), e.g. for
/// `nearby range --record`. Pure: it returns text; the caller writes it.
///
/// Numbers are written in Swift's shortest round-trip form, so ``TraceParser`` reads back exactly
/// the values written. Unknown values are empty fields.
public struct TraceWriter: Sendable {
    /// `true` to append the optional `rssi_dbm` column.
    public var includesRSSI: Bool

    /// Creates a writer.
    /// - Parameter includesRSSI: append the optional `rssi_dbm` column (default `false`: exactly
    ///   the eight standard columns).
    public init(includesRSSI: Bool = false) {
        self.includesRSSI = includesRSSI
    }

    /// The header line (without line terminator).
    public var header: String {
        "t_s,distance_m,azimuth_deg,elevation_deg,fom,nlos,status,truth_m" + (includesRSSI ? ",rssi_dbm" : "")
    }

    /// One data line (without line terminator) for `sample`, with an optional ground truth in metres.
    public func line(for sample: RangeSample, truth: Double? = nil) -> String {
        func number(_ value: Double?) -> String {
            guard let value, value.isFinite else { return "" }
            return "\(value)"
        }
        var fields: [String] = [
            number(sample.timestamp.isFinite ? sample.timestamp : nil),
            number(sample.distance),
            number(sample.azimuth),
            number(sample.elevation),
            sample.figureOfMerit.map { String($0) } ?? "",
            sample.isNonLineOfSight.map { $0 ? "1" : "0" } ?? "",
            String(sample.status),
            number(truth),
        ]
        if includesRSSI { fields.append(number(sample.rssi)) }
        return fields.joined(separator: ",")
    }

    /// One data line for `record`.
    public func line(for record: TraceRecord) -> String {
        line(for: record.sample, truth: record.truth)
    }
}
