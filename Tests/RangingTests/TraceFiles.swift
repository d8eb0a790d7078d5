import Foundation
import NearbyTestSupport
import Ranging

/// Reads bundled traces for tests (Foundation I/O here; parsing through the real `TraceParser`).
enum TraceFiles {
    static func records(_ relativePath: String) throws -> [TraceRecord] {
        let url = PackagePaths.file(relativePath)
        let text = try String(contentsOf: url, encoding: .utf8)
        return try parse(text, source: relativePath)
    }

    static func parse(_ text: String, source: String) throws -> [TraceRecord] {
        var parser = TraceParser(source: source)
        var records: [TraceRecord] = []
        var number = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            if let record = try parser.parse(line: line, number: number) { records.append(record) }
        }
        try parser.finish()
        return records
    }
}

extension BenchRunner {
    /// A runner that times a single pass: tests check metrics, not speed, and must not hog the
    /// two cores other tests run on.
    static func quick(zones: ZoneMap = .standard) -> BenchRunner {
        BenchRunner(zones: zones, minimumTimingDuration: .zero)
    }
}
