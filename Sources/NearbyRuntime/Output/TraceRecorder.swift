public import NearbyInteraction
import Foundation
import NIProtocol
public import NearbySupport
import Ranging

/// `--record FILE.csv`: every raw range sample in the trace format (specs/trace-format.md) with
/// one extra column, `accessory` (readers ignore unknown columns). Rows are in arrival order;
/// `t_s` counts from the start of the run and is kept non-decreasing across accessories, as the
/// format requires (samples of different accessories may arrive a fraction of a millisecond
/// out of order).
///
/// The file is written through `CaptureFile` (mode 0600). A row that cannot be
/// written (a full disk, a file-size limit, an I/O error) never stops the run: the first
/// failure is reported through `report`, rows are counted as lost and every later row is tried
/// again, so recording resumes when space is freed (reported too, with the number of rows
/// lost); the run's end reports the total.
public final class TraceRecorder: RunOutput, @unchecked Sendable {
    private let file: CaptureFile
    private let report: @Sendable (String) -> Void
    private let writer = TraceWriter()
    private var start = 0.0
    private var last = 0.0
    private var reportedResumptions = 0
    private var lostAtLastReport = 0

    /// A problem with the trace file.
    public struct RecordError: Error, Sendable, CustomStringConvertible {
        /// What is wrong and what to do.
        public var description: String
    }

    /// Creates (or truncates) `path`, mode 0600, and writes the header.
    /// - Parameters:
    ///   - path: the trace file (CSV, specs/trace-format.md).
    ///   - report: receives a line for people when writing fails, resumes, and at the end if
    ///     rows were lost (the CLI prints it on standard error).
    /// - Throws: ``RecordError`` naming the file when it cannot be created at all (a missing
    ///   directory, no permission). A full disk is not an error here: see the type.
    public init(path: String, report: @escaping @Sendable (String) -> Void = { _ in }) throws(RecordError) {
        self.report = report
        let header = Array((writer.header + ",accessory\n").utf8)
        do {
            file = try CaptureFile(
                path: path, header: header, limits: CaptureLimits(maximumBytes: .max, keptFiles: 0),
                onFailure: { report("\($0); samples are not recorded until writing works again (ranging goes on)") })
        } catch {
            throw RecordError(description: "\(error)")
        }
    }

    public func runStarted(_ context: RunContext) { start = context.start }

    public func handle(_ event: NearbySessionEvent, status: AccessoryStatus?) {
        guard case .update(let update) = event.kind, let accessory = event.accessory else { return }
        var sample = update.sample
        last = max(last, sample.timestamp - start)
        sample.timestamp = last
        let line = writer.line(for: sample) + "," + accessory.id.replacingOccurrences(of: ",", with: "_") + "\n"
        file.write(Array(line.utf8))
        let statistics = file.statistics
        if statistics.resumed > reportedResumptions {
            reportedResumptions = statistics.resumed
            report("writing works again; \(statistics.recordsLost - lostAtLastReport) sample(s) were not recorded")
            lostAtLastReport = statistics.recordsLost
        }
    }

    /// Rows written and lost so far.
    public var statistics: CaptureFile.Statistics { file.statistics }

    public func runFinished(_ summary: RunSummary) async {
        file.close()
        let statistics = file.statistics
        if statistics.recordsLost > 0 {
            report("\(statistics.recordsLost) of \(statistics.recordsLost + statistics.recordsWritten) sample(s) were not recorded")
        }
    }
}
