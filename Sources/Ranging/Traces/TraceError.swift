/// A trace file is not in the trace format (`specs/trace-format.md`); the message names the file,
/// the line, the column and what was expected.
public struct TraceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public enum Reason: Sendable, Hashable {
        /// The file holds no header line (it is empty, or only comments and blank lines).
        case missingHeader
        /// The header lacks a required column (`t_s`, `distance_m`).
        case missingColumn(String)
        /// The header names a column twice.
        case duplicateColumn(String)
        /// The row has a different number of fields than the header.
        case fieldCount(expected: Int, found: Int)
        /// A field is not a valid value for its column.
        case invalidValue(column: String, value: String, expected: String)
        /// The row's `t_s` is empty.
        case missingTimestamp
        /// The row's `t_s` is earlier than the previous row's.
        case timeWentBackwards(previous: Double, found: Double)
    }

    /// The file name (as the caller gave it to the parser).
    public var source: String
    /// The 1-based line number.
    public var line: Int
    /// What is wrong.
    public var reason: Reason

    /// Creates an error.
    public init(source: String, line: Int, reason: Reason) {
        self.source = source
        self.line = line
        self.reason = reason
    }

    /// `file:line: what is wrong; what to do`.
    public var description: String {
        let header = "t_s,distance_m,azimuth_deg,elevation_deg,fom,nlos,status,truth_m"
        let detail: String
        switch reason {
        case .missingHeader:
            detail = "no header line; a trace starts with the header \(header) (see specs/trace-format.md)"
        case .missingColumn(let name):
            detail = "the header has no '\(name)' column; a trace needs at least t_s and distance_m (full header: \(header))"
        case .duplicateColumn(let name):
            detail = "the header names the column '\(name)' twice; remove one"
        case .fieldCount(let expected, let found):
            detail = "expected \(expected) comma-separated fields as in the header, found \(found); fix or delete this row"
        case .invalidValue(let column, let value, let expected):
            detail = "column \(column): '\(value)' is not \(expected); fix the value, or leave the field empty if unknown"
        case .missingTimestamp:
            detail = "column t_s is empty; every row needs a timestamp in seconds"
        case .timeWentBackwards(let previous, let found):
            detail = "t_s \(found) is earlier than the previous row's \(previous); rows must be in time order"
        }
        return "\(source):\(line): \(detail)"
    }
}
