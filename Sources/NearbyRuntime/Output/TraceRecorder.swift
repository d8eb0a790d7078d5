import Foundation
public import NearbyInteraction
import NIProtocol
import Ranging

/// `--record FILE.csv`: every raw range sample in the trace format (specs/trace-format.md) with
/// one extra column, `accessory` (readers ignore unknown columns). Rows are in arrival order;
/// `t_s` counts from the start of the run and is kept non-decreasing across accessories, as the
/// format requires (samples of different accessories may arrive a fraction of a millisecond
/// out of order).
public final class TraceRecorder: RunOutput, @unchecked Sendable {
    private let handle: FileHandle
    private let writer = TraceWriter()
    private var start = 0.0
    private var last = 0.0
    private var failed = false

    /// A problem with the trace file.
    public struct RecordError: Error, Sendable, CustomStringConvertible {
        /// What is wrong and what to do.
        public var description: String
    }

    /// Creates (or truncates) `path`, mode 0600, and writes the header.
    /// - Throws: ``RecordError`` naming the file when it cannot be created.
    public init(path: String) throws(RecordError) {
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]),
            let handle = FileHandle(forWritingAtPath: path)
        else {
            throw RecordError(description: "cannot create \(path): check the directory exists and is writable")
        }
        self.handle = handle
        handle.write(Data((writer.header + ",accessory\n").utf8))
    }

    public func runStarted(_ context: RunContext) { start = context.start }

    public func handle(_ event: NearbySessionEvent, status: AccessoryStatus?) {
        guard case .update(let update) = event.kind, let accessory = event.accessory, !failed else { return }
        var sample = update.sample
        last = max(last, sample.timestamp - start)
        sample.timestamp = last
        let line = writer.line(for: sample) + "," + accessory.id.replacingOccurrences(of: ",", with: "_") + "\n"
        do {
            try handle.write(contentsOf: Data(line.utf8))
        } catch {
            failed = true
        }
    }

    public func runFinished(_ summary: RunSummary) async {
        try? handle.close()
    }
}
