import Foundation
import Hooks
import Logging
import Testing
import Synchronization

/// `HookRunner` with real child processes.
@Suite(.serialized) struct HookRunnerTests {
    @Test func environmentArrivesExactlyAndInheritedVariablesStay() async throws {
        setenv("NEARBY_HOOK_TEST_INHERITED", "kept", 1)
        let hook = try HookDefinition(on: .enter, zone: "near", run: ["/usr/bin/env", "-0"])
        let runner = HookRunner(hooks: [hook], options: .init(outputTailBytes: 1 << 20))
        let outcomes = runner.outcomes()
        #expect(runner.submit(.test(.enter, zone: "near", previous: "mid", distance: 0.98765)))
        await runner.finish()
        let all = await collect(outcomes)
        try #require(all.count == 1)
        #expect(all[0].status == .exited(0))
        #expect(all[0].succeeded)
        let environment = parseEnvironment(all[0].standardOutputTail)
        #expect(environment.filter { $0.key.hasPrefix("NEARBY_") && $0.key != "NEARBY_HOOK_TEST_INHERITED" } == [
            "NEARBY_EVENT": "enter", "NEARBY_ZONE": "near", "NEARBY_PREVIOUS_ZONE": "mid", "NEARBY_ACCESSORY": "tag",
            "NEARBY_ACCESSORY_ID": "F0:12:34:56:78:9A", "NEARBY_DISTANCE_M": "0.988",
            "NEARBY_TIMESTAMP": "2025-01-31T12:34:56.789Z",
        ])
        #expect(environment["NEARBY_HOOK_TEST_INHERITED"] == "kept")
        #expect(environment["PATH"] == ProcessInfo.processInfo.environment["PATH"])
    }

    @Test(arguments: [
        "$(touch INJECTED)", "; touch INJECTED", "`touch INJECTED`", "tag\ntouch INJECTED", "' \"; touch INJECTED #",
        "$((1+1)) && touch INJECTED || touch INJECTED", "-rf --help",
    ])
    func injectionInAccessoryNamesExecutesNothing(name: String) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let marker = scratch.path("INJECTED")
        let name = name.replacingOccurrences(of: "INJECTED", with: marker)
        let envFile = scratch.path("env")
        // A program run directly (no shell) and the user's own shell script that quotes the
        // variable: neither may execute anything from the name.
        let direct = try HookDefinition(on: .enter, run: ["/usr/bin/env", "-0"])
        let shell = try HookDefinition(
            on: .enter, run: ["/bin/sh", "-c", "printf '%s' \"$NEARBY_ACCESSORY\" > \"$1\"", "sh", envFile])
        let runner = HookRunner(hooks: [direct, shell], options: .init(outputTailBytes: 1 << 20))
        let outcomes = runner.outcomes()
        runner.submit(.test(.enter, zone: "near", accessory: name, id: name))
        await runner.finish()
        let all = await collect(outcomes).sorted { $0.hookIndex < $1.hookIndex }
        try #require(all.count == 2)
        #expect(all.allSatisfy { $0.status == .exited(0) }, "\(all)")
        let environment = parseEnvironment(all[0].standardOutputTail)
        #expect(environment["NEARBY_ACCESSORY"] == name)
        #expect(environment["NEARBY_ACCESSORY_ID"] == name)
        #expect(scratch.read("env") == name)
        #expect(!FileManager.default.fileExists(atPath: marker), "the accessory name was executed")
    }

    @Test func hangingHookIsKilledAtItsTimeoutWhileSubmitsStayInstant() async throws {
        let hang = try HookDefinition(on: .enter, run: ["/bin/sleep", "100"], timeout: 0.5)
        let runner = HookRunner(hooks: [hang], options: .init(queueCapacity: 64, killGracePeriod: .seconds(2)))
        let outcomes = runner.outcomes()
        let clock = ContinuousClock()
        let started = clock.now
        runner.submit(.test(.enter, zone: "near"))
        // Keep submitting like a 100 Hz pipeline while the hook hangs: every submit returns at once.
        var slowest = Duration.zero
        var accepted = 0
        for _ in 0..<40 {
            let before = clock.now
            if runner.submit(.test(.enter, zone: "mid")) { accepted += 1 }
            slowest = max(slowest, clock.now - before)
            try await Task.sleep(for: .milliseconds(10))
        }
        let submitting = seconds(clock.now - started)
        #expect(accepted == 40)
        // Never waits for the hanging hook: the events submitted meanwhile were coalesced into a
        // few runs (checked below); a blocking submit would have run them one by one.
        _ = slowest
        await runner.finish()
        let all = await collect(outcomes)
        try #require(all.count >= 2, "\(all)")
        #expect(all[0].status == .signaled(SIGTERM))
        #expect(all[0].timedOut)
        // Killed at its 0.5 s timeout by SIGTERM (not by the SIGKILL that would follow 2 s later).
        #expect(all[0].duration >= 0.45, "duration \(all[0].duration)")
        #expect(all[0].description.contains("signal 15 (SIGTERM) (timed out)"))
        // The events that arrived meanwhile were coalesced: one more run each time the previous
        // one ended (every 0.5 s), for the latest of them; none was lost.
        // At most one run per timeout period while events kept coming (+ the first and a last one).
        #expect(all.count <= 2 + Int(submitting / 0.45), "\(all.count) runs in \(submitting) s")
        #expect(all.dropFirst().map(\.coalescedEvents).reduce(0, +) == accepted)
        #expect(all.dropFirst().allSatisfy { $0.event.zone == "mid" && $0.status == .signaled(SIGTERM) && $0.timedOut })
    }

    @Test func hookIgnoringSigtermGetsSigkillAfterTheGracePeriod() async throws {
        let stubborn = try HookDefinition(on: .found, run: ["/bin/sh", "-c", "trap '' TERM; sleep 100"], timeout: 0.3)
        let runner = HookRunner(hooks: [stubborn], options: .init(killGracePeriod: .milliseconds(500)))
        let outcomes = runner.outcomes()
        runner.submit(.test(.found))
        await runner.finish()
        let all = await collect(outcomes)
        try #require(all.count == 1)
        // SIGTERM at the 0.3 s timeout was ignored: SIGKILL after the 0.5 s grace period.
        #expect(all[0].status == .signaled(SIGKILL))
        #expect(all[0].timedOut)
        #expect(all[0].duration >= 0.75, "duration \(all[0].duration)")
    }

    @Test func burstOfTransitionsDoesNotForkABurstOfProcesses() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let runs = scratch.path("runs")
        let hook = try HookDefinition(
            on: .enter, run: ["/bin/sh", "-c", "echo \"$NEARBY_ZONE\" >> \"$1\"; sleep 0.2", "sh", runs])
        let runner = HookRunner(hooks: [hook])
        let outcomes = runner.outcomes()
        for i in 0..<100 { runner.submit(.test(.enter, zone: i == 99 ? "last" : "zone\(i)")) }
        await runner.finish()
        let all = await collect(outcomes)
        let lines = (scratch.read("runs") ?? "").split(separator: "\n")
        #expect((1...2).contains(lines.count), "\(lines.count) processes for 100 events")
        #expect(all.count == lines.count)
        #expect(lines.last == "last")
        #expect(all.last?.event.zone == "last")
        #expect(all.map { $0.coalescedEvents == 0 ? 1 : $0.coalescedEvents }.reduce(0, +) == 100)
        if all.count == 2 {
            #expect(all[1].coalescedEvents == 99)
            #expect(all[1].description.hasSuffix("coalesced 99 events"))
        }
        let statistics = await runner.statistics()
        #expect(statistics.submitted == 100)
        #expect(statistics.runs == all.count)
    }

    @Test func cooldownSkipsEventsUntilItHasPassed() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let cooled = try HookDefinition(
            name: "cooled", on: .exit, run: ["/bin/sh", "-c", "echo \"$NEARBY_ZONE\" >> \"$1\"", "sh", scratch.path("cooled")], cooldown: 3)
        let free = try HookDefinition(
            name: "free", on: .exit, run: ["/bin/sh", "-c", "echo \"$NEARBY_ZONE\" >> \"$1\"", "sh", scratch.path("free")])
        // The cooldown's clock is manual: b and c come 1 s and 2 s after a (within its 3 s), d at
        // 3.2 s, however long the machine takes to run the hooks.
        let now = Mutex(100.0)
        let runner = HookRunner(hooks: [cooled, free], timeSource: HookRunner.TimeSource { now.withLock { $0 } })
        for (zone, time) in [("a", 100.0), ("b", 101.0), ("c", 102.0)] {
            now.withLock { $0 = time }
            runner.submit(.test(.exit, zone: zone))
            await runner.waitUntilIdle()
        }
        now.withLock { $0 = 103.2 }
        runner.submit(.test(.exit, zone: "d"))
        await runner.finish()
        #expect(scratch.read("cooled") == "a\nd\n")
        #expect(scratch.read("free") == "a\nb\nc\nd\n")
        let statistics = await runner.statistics()
        #expect(statistics.suppressedByCooldown == 2)
        #expect(statistics.runs == 6)
    }

    @Test func onlyMatchingHooksRunPerZoneAndAccessory() async throws {
        let hooks = [
            try HookDefinition(on: .enter, zone: "near", accessory: "keys", run: ["/bin/true"]),
            try HookDefinition(on: .enter, zone: "far", run: ["/bin/true"]),
            try HookDefinition(on: .exit, zone: "near", run: ["/bin/true"]),
            try HookDefinition(on: .lost, accessory: "*", run: ["/bin/true"]),
        ]
        let runner = HookRunner(hooks: hooks)
        let outcomes = runner.outcomes()
        #expect(runner.submit(.test(.enter, zone: "near", accessory: "keys")))
        await runner.waitUntilIdle()
        #expect(!runner.submit(.test(.enter, zone: "near", accessory: "tag")))
        #expect(runner.submit(.test(.enter, zone: "far", accessory: "tag")))
        await runner.waitUntilIdle()
        #expect(!runner.submit(.test(.found)))
        #expect(runner.submit(.test(.lost, previous: "far")))
        await runner.finish()
        let all = await collect(outcomes)
        #expect(all.map(\.hookIndex) == [0, 1, 3])
        #expect(all.map(\.event.accessoryName) == ["keys", "tag", "tag"])
        #expect(!runner.submit(.test(.lost)), "a finished runner accepts nothing")
    }

    @Test func outputTailsAreCutToTheLimit() async throws {
        let hook = try HookDefinition(
            on: .found, run: ["/bin/sh", "-c", "head -c 10000 /dev/zero | tr '\\0' x; echo END; echo oops >&2; exit 3"])
        let runner = HookRunner(hooks: [hook], options: .init(outputTailBytes: 100))
        let outcomes = runner.outcomes()
        runner.submit(.test(.found))
        await runner.finish()
        let all = await collect(outcomes)
        try #require(all.count == 1)
        #expect(all[0].status == .exited(3))
        #expect(!all[0].succeeded)
        #expect(all[0].standardOutputTail == "…" + String(repeating: "x", count: 96) + "END\n")
        #expect(all[0].standardErrorTail == "oops\n")
    }

    @Test func missingProgramIsReportedNotThrown() async throws {
        let hooks = [
            try HookDefinition(on: .found, run: ["nearby-no-such-program-xyz"]),
            try HookDefinition(on: .found, run: ["/nonexistent/dir/program"]),
        ]
        let runner = HookRunner(hooks: hooks)
        let outcomes = runner.outcomes()
        runner.submit(.test(.found))
        await runner.finish()
        let all = await collect(outcomes).sorted { $0.hookIndex < $1.hookIndex }
        try #require(all.count == 2)
        #expect(all[0].status == .failedToStart("'nearby-no-such-program-xyz' was not found in PATH; write its absolute path (e.g. /usr/bin/nearby-no-such-program-xyz)"))
        #expect(all[1].status == .failedToStart("/nonexistent/dir/program does not exist or is not executable; check the path and its x permission"))
    }

    @Test func cancelEndsRunningHooksNow() async throws {
        let hook = try HookDefinition(on: .found, run: ["/bin/sleep", "100"], timeout: 60)
        let runner = HookRunner(hooks: [hook], options: .init(killGracePeriod: .seconds(1)))
        let outcomes = runner.outcomes()
        runner.submit(.test(.found))
        try await Task.sleep(for: .milliseconds(200))
        await runner.cancel()
        let all = await collect(outcomes)
        try #require(all.count == 1)
        // Ended by the cancel (SIGTERM), long before its 60 s timeout or its 100 s sleep.
        #expect(!all[0].timedOut)
        #expect(all[0].duration < 60)
        #expect(!all[0].succeeded)
        #expect(all[0].status != .exited(0))
    }

    @Test func droppedEventsAreCountedWhenTheQueueOverflows() async throws {
        let hook = try HookDefinition(on: .enter, run: ["/bin/true"])
        let runner = HookRunner(hooks: [hook], options: .init(queueCapacity: 1))
        var accepted = 0
        for _ in 0..<5000 where runner.submit(.test(.enter, zone: "near")) { accepted += 1 }
        await runner.finish()
        let statistics = await runner.statistics()
        #expect(accepted == 5000)
        #expect(statistics.submitted == 5000)
        // Every event was either dispatched (run or coalesced) or dropped; none lost silently.
        #expect(statistics.dispatched + statistics.dropped == 5000)
        #expect(statistics.dispatched >= 1)
        #expect(statistics.runs <= statistics.dispatched)
    }
}
