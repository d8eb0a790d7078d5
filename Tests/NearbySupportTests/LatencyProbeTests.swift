import NearbySupport
import Testing

/// `make perf`'s latency histograms (`LatencyProbe`): a line or hook that came before its
/// sample's time (a sample of the in-process simulated world, stamped with its round's time,
/// may be written before that time) has no latency: it is counted apart, not recorded as 0.
@Suite struct LatencyProbeTests {
    @Test func linesAndHooksBeforeTheirSamplesTimeAreCountedApart() {
        let probe = LatencyProbe(path: "/dev/null")
        probe.recordLines(readAt: [10.0, 10.0005, 10.003], writtenAt: 10.001)
        probe.recordHook(readAt: 20.0, startedAt: 20.002)
        probe.recordHook(readAt: 20.0, startedAt: 19.999)
        let report = probe.report()
        let summaries = report.split(separator: "\n").filter { $0.hasPrefix("# ") }
        #expect(summaries.count == 2)
        #expect(summaries[0].hasPrefix("# line: count 2 p50 "), "\(summaries[0])")
        #expect(summaries[0].hasSuffix("ahead 1 (before their sample's time, not counted)"), "\(summaries[0])")
        #expect(summaries[1].hasPrefix("# hook: count 1 p50 "), "\(summaries[1])")
        #expect(summaries[1].hasSuffix("ahead 1 (before their sample's time, not counted)"), "\(summaries[1])")
        // Recorded: about 1000 µs and 500 µs (truncated to whole µs; no line at 0).
        #expect(summaries[0].contains(" p50 499 ") && summaries[0].contains(" max 999 "), "\(summaries[0])")
    }
}
