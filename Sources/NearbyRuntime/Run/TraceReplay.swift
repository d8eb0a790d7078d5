public import NIProtocol
import NearbyInteraction
import NearbySupport
import Ranging
import Hooks

/// Replays a recorded trace (CSV, specs/trace-format.md) through the ranging engine into a
/// ``RangingRun`` (`nearby replay`): the same updates, events, hooks and outputs as a live run.
/// Streams the file (constant memory).
public enum TraceReplay {
    /// What a replay saw.
    public struct Totals: Sendable, Hashable {
        /// Samples replayed.
        public var samples = 0
        /// Ranging events (zone changes, lost, found).
        public var events = 0
        /// Seconds from the first to the last sample.
        public var duration = 0.0
    }

    /// The accessory a replay's events name: `id`, else the trace's file name (`walk.csv` for
    /// `data/walk.csv`), shown as `name`.
    public static func identity(path: String, id: String? = nil, name: String) -> AccessoryIdentity {
        AccessoryIdentity(id: id ?? path.split(separator: "/").last.map(String.init) ?? path, displayName: name)
    }

    /// Replays `path` as accessory `identity` into `run`. Times are shifted so the first sample is
    /// at 0 (make the run's context start at 0).
    /// - Parameters:
    ///   - path: the trace file (CSV, specs/trace-format.md).
    ///   - speed: 1 = real time, 10 = ten times faster, 0 = as fast as possible; then every hook
    ///     an event queues is waited for before the next sample, so the result does not depend
    ///     on the machine's speed.
    ///   - identity: the accessory the samples are attributed to.
    ///   - settings: the pipeline (filter, zones, lost-after) the samples go through.
    ///   - run: the run that gets the updates and events.
    /// - Throws: `TraceError` for a malformed file (line and column), `FileSystemError` when it
    ///   cannot be read, `CancellationError` when the task was cancelled.
    public static func replay(
        path: String, speed: Double, identity: AccessoryIdentity, settings: RunSettings, into run: RangingRun
    ) async throws -> Totals {
        var pipeline = settings.makePipeline()
        var reader = try LineReader(path: path)
        var parser = TraceParser(source: path)
        let clock = ContinuousClock()
        let start = clock.now
        var origin: Double?
        var totals = Totals()
        while let parsed = try reader.nextBytes({ (bytes, number) throws(TraceError) in try parser.parse(bytes: bytes, number: number) }) {
            guard let record = parsed else { continue }
            var sample = record.sample
            let first = origin ?? sample.timestamp
            origin = first
            sample.timestamp -= first
            if speed > 0 {
                run.flush()
                try await clock.sleep(until: start + .seconds(sample.timestamp / speed))
            } else {
                try Task.checkCancellation()
            }
            let update = pipeline.process(sample)
            totals.samples += 1
            totals.events += update.events.count
            totals.duration = sample.timestamp
            let queued = run.handle(NearbySessionEvent(accessory: identity, time: update.timestamp, kind: .update(update)))
            if speed == 0, queued, let hooks = run.hooks {
                run.flush()
                await hooks.waitUntilIdle()
            }
        }
        run.flush()
        try parser.finish()
        return totals
    }
}
