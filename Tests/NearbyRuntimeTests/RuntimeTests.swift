import Foundation
import Hooks
import NIProtocol
import NearbyConfig
import NearbyInteraction
import NearbyRuntime
import Ranging
import Simulation
import Synchronization
import Testing
import NearbyBase

/// Collects what a run gives its outputs.
final class CollectingOutput: RunOutput, @unchecked Sendable {
    private let lock = NSLock()
    private var _events: [NearbySessionEvent] = []
    private var _statuses: [AccessoryStatus] = []
    private var _summary: RunSummary?

    var events: [NearbySessionEvent] { lock.withLock { _events } }
    var statuses: [AccessoryStatus] { lock.withLock { _statuses } }
    var summary: RunSummary? { lock.withLock { _summary } }

    func handle(_ event: NearbySessionEvent, status: AccessoryStatus?) {
        lock.withLock {
            _events.append(event)
            if let status { _statuses.append(status) }
        }
    }

    func runFinished(_ summary: RunSummary) async { lock.withLock { _summary = summary } }
}

@Suite("NearbyRuntime")
struct RuntimeTests {
    /// The README's "Ranging from Swift" example (the JSON lines collected instead of printed).
    @Test func theReadmeExampleRangesWithTheSimulator() async throws {
        let lines = Mutex<[String]>([])
        // The whole suite shares 2 loaded cores and this process's cooperative pool: an actor can
        // wait seconds for a thread there, which the default 2 s `lost` would turn into a retry, and
        // the default 3 s for the accessory's answer to 0x0A too (seen: both answers 4.1 s after the request).
        var configuration = NearbyConfiguration()
        configuration.zones.lostAfter = 10
        // --- README example (with that configuration) ---
        var settings = try RunSettings(configuration: configuration)
        settings.session.configurationTimeout = .seconds(10)  // (not in the README: see above)
        let demo = try await DemoRanging.start(scenario: .walkIn, accessories: 2, seed: 1, speed: 1, settings: settings)
        let run = RangingRun(
            context: RunContext(accessories: demo.accessories, zones: settings.zones),
            outputs: [JSONLinesOutput(write: { line in lines.withLock { $0.append(line) } }, notes: { _ in })])
        let consumer = Task { await run.consume(demo.manager.events) }
        await demo.startSessions { print($0) }
        while await !demo.isOver(after: demo.duration) { try await Task.sleep(for: .milliseconds(100)) }
        // (Not in the README: the walk ends standing near, and the world holds that position. A
        // machine that stalls this process can leave the filter still settling at the walk's end,
        // so give each accessory up to 20 scenario seconds more to report `near`.)
        func settledNear() -> Bool {
            let zones = lines.withLock { $0 }.compactMap { line -> (String, String)? in
                guard line.contains(#""type":"zone""#),
                      let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                      let id = object["accessory"] as? String, let to = object["to"] as? String else { return nil }
                return (id, to)
            }
            return ["sim-1", "sim-2"].allSatisfy { id in zones.last { $0.0 == id }?.1 == "near" }
        }
        while !settledNear(), await !demo.isOver(after: demo.duration + 20) { try await Task.sleep(for: .milliseconds(100)) }
        await demo.close()
        await consumer.value
        let summary = await run.finish(interrupted: false)
        // --- end ---
        #expect(summary.accessories.map(\.identity.id) == ["sim-1", "sim-2"])
        #expect(summary.anythingRanged)
        let objects = try lines.withLock { $0 }.map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let story = objects.filter { ["ranging", "retry", "state", "dropped", "error"].contains($0["event"] as? String ?? "") }
            .map { "\($0["t_s"] ?? "") \($0["accessory"] ?? "") \($0["event"] ?? "") \($0["type"] ?? $0["state"] ?? $0["reason"] ?? "") \($0["to"] ?? "")" }
            .joined(separator: "\n")
        // Walk-in: far, mid, near. The simulated world moves in real time, so a machine that
        // stalls this process for longer than the walk spends in `mid` (about 1.5 s) may skip it
        // (the world does not replay more than a second of missed rounds), and after such a jump
        // the filter re-locks and may settle through mid once more (seen: far, near, mid, near):
        // the changes must still chain (each starts where the last ended), start far and end near.
        for status in summary.accessories {
            let changes = objects.filter {
                $0["event"] as? String == "ranging" && $0["type"] as? String == "zone" && $0["accessory"] as? String == status.identity.id
            }
            let to = changes.map { $0["to"] as? String }
            let from = changes.map { $0["from"] as? String }
            #expect(status.zoneChanges == changes.count && (2...5).contains(changes.count), "\(status.identity)\n\(story)")
            #expect(to.first == "far" && to.last == "near", "\(to)\n\(story)")
            #expect(from == [nil] + to.dropLast(), "\(from) \(to)")
            #expect(status.measured > 20 && status.retries == 0, "\(story)")
        }
        #expect(objects.last?["event"] as? String == "summary")
    }

    @Test func statusHooksAndTheSummaryComeFromTheEventsAlone() async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("nearby-runtime-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let log = scratch.appendingPathComponent("hooks.log").path
        var configuration = NearbyConfiguration()
        configuration.filter = FilterSettings(spec: FilterSpec(.raw))
        configuration.hooks = [
            try HookDefinition(on: .enter, run: ["/bin/sh", "-c", "echo \"$NEARBY_EVENT $NEARBY_ZONE $NEARBY_PREVIOUS_ZONE $NEARBY_TIMESTAMP\" >> \"$1\"", "sh", log]),
            try HookDefinition(on: .lost, run: ["/bin/sh", "-c", "echo \"lost $NEARBY_PREVIOUS_ZONE\" >> \"$1\"", "sh", log]),
        ]
        let settings = try RunSettings(configuration: configuration)
        let keys = AccessoryIdentity(id: "k", displayName: "Keys")
        // The run's clock starts at 1000 s; the wall clock then was 2025-01-01T00:00:00Z.
        let context = RunContext(accessories: [keys], zones: settings.zones, start: 1000, wallStart: 1_735_689_600)
        let collector = CollectingOutput()
        let run = RangingRun(context: context, outputs: [collector], hooks: settings.hookRunner())
        var pipeline = settings.makePipeline()
        for (t, d) in [(1000.0, 4.0), (1000.5, 2.0), (1001.0, 2.0), (1001.5, 2.0)] {
            let update = pipeline.process(RangeSample(timestamp: t, distance: d))
            run.handle(NearbySessionEvent(accessory: keys, time: t, kind: .update(update)))
            await run.hooks?.waitUntilIdle()
        }
        for event in pipeline.tick(now: 1010) {
            run.handle(NearbySessionEvent(accessory: keys, time: 1010, kind: .ranging(event)))
        }
        let summary = await run.finish(interrupted: false)
        let status = try #require(summary.accessories.first)
        #expect(status.updates == 4 && status.measured == 4 && status.zoneChanges == 2)
        #expect(status.tracking == .lost && status.distance == nil && status.lastDistance == 2.0)
        #expect(summary.hookRuns == 3 && summary.hookFailures == 0)
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
        // Hooks see the event's own time on the wall clock: the far->mid change happened at
        // 1001.0 s (0.5 s dwell after 1000.5), 1 s after the start.
        #expect(lines == [
            "enter far  2025-01-01T00:00:00.000Z", "enter mid far 2025-01-01T00:00:01.000Z", "lost mid",
        ])
        #expect(collector.statuses.last?.tracking == .lost)
    }

    /// `nearby demo --speed 10`: the scene's clock runs ten times faster than the wall clock.
    /// Hooks (and MQTT) get the real wall-clock time of an event, never a time in the future;
    /// `t_s` stays in the scene's seconds.
    @Test func aFasterSimulationStampsHooksWithTheRealWallClock() async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("nearby-runtime-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let log = scratch.appendingPathComponent("hooks.log").path
        var configuration = NearbyConfiguration()
        configuration.filter = FilterSettings(spec: FilterSpec(.raw))
        configuration.hooks = [
            try HookDefinition(on: .enter, run: ["/bin/sh", "-c", "echo \"$NEARBY_ZONE $NEARBY_TIMESTAMP\" >> \"$1\"", "sh", log]),
        ]
        let settings = try RunSettings(configuration: configuration, timeScale: 10)
        let keys = AccessoryIdentity(id: "k", displayName: "Keys")
        let context = RunContext(accessories: [keys], zones: settings.zones, start: 1000, wallStart: 1_735_689_600, timeScale: 10)
        #expect(context.wallClock(1010) == 1_735_689_601 && context.eventTime(wallClock: 1_735_689_601) == 1010)
        #expect(context.elapsed(1010) == 10)
        #expect(RunContext(accessories: [], zones: .standard, start: 0, wallStart: 0, timeScale: 0).timeScale == 1)
        let run = RangingRun(context: context, outputs: [], hooks: settings.hookRunner())
        var pipeline = settings.makePipeline()
        for (t, d) in [(1000.0, 4.0), (1000.5, 2.0), (1001.0, 2.0), (1001.5, 2.0)] {
            let update = pipeline.process(RangeSample(timestamp: t, distance: d))
            run.handle(NearbySessionEvent(accessory: keys, time: t, kind: .update(update)))
            await run.hooks?.waitUntilIdle()
        }
        _ = await run.finish(interrupted: false)
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
        // far at the start; mid 1 scene second later (0.5 s dwell after 1000.5), which is 0.1 s
        // on the wall clock.
        #expect(lines == ["far 2025-01-01T00:00:00.000Z", "mid 2025-01-01T00:00:00.100Z"])
    }

    @Test func jsonObjectsOfAZoneChangeAndOfTheSummary() {
        let context = RunContext(accessories: [], zones: .standard, start: 10, wallStart: 0)
        let change = RangingEvent.zoneChanged(from: ZoneRef(index: 1, name: "mid"), to: ZoneRef(index: 0, name: "near"), at: 12.5)
        let object = RunJSON.object(for: change, accessory: AccessoryIdentity(id: "a", displayName: "A"), context: context)
        #expect(object.text == #"{"t_s":2.5,"event":"ranging","accessory":"a","name":"A","type":"zone","from":"mid","to":"near","zone":"near"}"#)
        var summary = RunSummary(accessories: [])
        summary.duration = 3
        summary.droppedUpdates = 7
        #expect(RunJSON.objects(for: summary, context: context).last?.text
            == #"{"t_s":3,"event":"summary","accessory":null,"name":null,"duration_s":3,"dropped_updates":7,"hook_runs":0,"hook_failures":0,"hook_events_dropped":0,"interrupted":false}"#)
    }
}

/// Samples that arrive after their UWB session stopped (a retry's old session still sending)
/// are discarded by the session and counted: the count reaches the status, the summary line,
/// the JSON summary and the `dropped` event (queue `stopped-session`), so a soak can account
/// for every measurement the kit sent.
@Suite struct DiscardedSampleTests {
    @Test func samplesOfAStoppedSessionAreCountedUpToTheSummary() async throws {
        let keys = AccessoryIdentity(id: "k", displayName: "Keys")
        let context = RunContext(accessories: [keys], zones: .standard, start: 0, wallStart: 1_735_689_600)
        let collector = CollectingOutput()
        let run = RangingRun(context: context, outputs: [collector])
        run.handle(NearbySessionEvent(accessory: keys, time: 1, kind: .dropped(DropReport(queue: .stoppedSession, count: 5, total: 5))))
        run.handle(NearbySessionEvent(accessory: keys, time: 2, kind: .dropped(DropReport(queue: .sessionInbox, count: 2, total: 2))))
        run.handle(NearbySessionEvent(accessory: keys, time: 3, kind: .dropped(DropReport(queue: .stoppedSession, count: 3, total: 8))))
        let summary = await run.finish(interrupted: false)
        let status = try #require(summary.accessories.first)
        #expect(status.discardedSamples == 8 && status.droppedSamples == 2)
        #expect(status.summaryLine.contains("2 samples dropped, 8 samples of a stopped session discarded"), "\(status.summaryLine)")
        let object = try #require(RunJSON.objects(for: summary, context: context).first?.text)
        #expect(object.contains("\"dropped_samples\":2") && object.contains("\"discarded_samples\":8"), "\(object)")
        let event = NearbySessionEvent(accessory: keys, time: 3, kind: .dropped(DropReport(queue: .stoppedSession, count: 3, total: 8)))
        let line = try #require(RunJSON.objects(for: event, context: context).first?.text)
        #expect(line.contains("\"queue\":\"stopped-session\"") && line.contains("\"count\":3") && line.contains("\"total\":8"), "\(line)")
        #expect(DropReport(queue: .stoppedSession, count: 1, total: 4).description == "1 range sample of a stopped UWB session discarded (4 in all)")
    }
}
