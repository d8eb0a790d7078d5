import NearbySupport
import Ranging

/// Reads a trace file for `nearby bench`: `LineReader` (I/O, constant memory) feeding
/// `TraceParser` (pure). Errors name the file and line: `FileSystemError` or `TraceError`.
enum BenchTraceFile {
    static func read(_ path: String) throws -> [TraceRecord] {
        var parser = TraceParser(source: path)
        var records: [TraceRecord] = []
        try LineReader.forEachLine(in: path) { line in
            if let record = try parser.parse(line: line.text, number: line.number) { records.append(record) }
        }
        try parser.finish()
        return records
    }
}
