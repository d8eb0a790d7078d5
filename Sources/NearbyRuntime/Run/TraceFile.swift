import NearbySupport
public import Ranging

/// Reads a whole trace file (CSV, specs/trace-format.md) into memory, for `nearby bench`:
/// `LineReader` (I/O, constant memory while reading) feeding
/// `TraceParser` (pure). ``TraceReplay`` streams instead.
public enum TraceFile {
    /// The records of the trace at `path`, in order.
    /// - Throws: `FileSystemError` when it cannot be read, `TraceError` for a malformed line
    ///   (both name the file and the line).
    public static func read(_ path: String) throws -> [TraceRecord] {
        var parser = TraceParser(source: path)
        var records: [TraceRecord] = []
        try LineReader.forEachLine(in: path) { line in
            if let record = try parser.parse(line: line.text, number: line.number) { records.append(record) }
        }
        try parser.finish()
        return records
    }
}
