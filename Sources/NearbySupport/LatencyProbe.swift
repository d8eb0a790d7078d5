#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Histogram
import Synchronization

/// Latency histograms of the sample path, for `make perf` (specs/runtime.md): from the
/// sample's time to the update's line written, and to a hook process's start. A sample's time
/// is when its transport read the range notification (USB, serial, TCP), or, from the
/// in-process simulated world, the time of its round, which may be a little after its line is
/// written (the world runs rounds up to 20 ms ahead): such a line has no latency to record and
/// is counted apart (`ahead` in the report), not recorded as 0. Off unless the environment
/// variable `NEARBY_LATENCY_LOG` names a file; then ``shared`` records into two HdrHistograms
/// (microseconds, 3 significant digits) and ``writeReport()`` writes their percentile
/// distributions there when the run ends.
///
/// Off, it costs the hot path one check of ``shared`` per written batch.
public final class LatencyProbe: Sendable {
    /// The probe of this process, `nil` unless `NEARBY_LATENCY_LOG` is set.
    public static let shared: LatencyProbe? = getenv("NEARBY_LATENCY_LOG").map { LatencyProbe(path: String(cString: $0)) }

    /// Where the report goes.
    public let path: String

    private struct Histograms {
        var line = Histogram<UInt64>(lowestDiscernibleValue: 1, highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
        var hook = Histogram<UInt64>(lowestDiscernibleValue: 1, highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
        /// Lines and hooks that came before their sample's time (not in the histograms).
        var linesAhead = 0
        var hooksAhead = 0
    }

    private let histograms = Mutex(Histograms())

    /// A probe writing its report to `path`.
    public init(path: String) {
        self.path = path
    }

    /// `CLOCK_MONOTONIC` in seconds: the clock of range-sample timestamps.
    public static func monotonicNow() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1_000_000_000
    }

    /// `CLOCK_REALTIME` in seconds since the Unix epoch: the clock of hook timestamps.
    public static func wallNow() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1_000_000_000
    }

    /// Lines written at `written` whose samples have the times `reads` (``monotonicNow()``
    /// seconds); a line written before its sample's time counts as ahead, not as a latency.
    public func recordLines(readAt reads: [Double], writtenAt written: Double) {
        histograms.withLock { histograms in
            for read in reads {
                if written < read {
                    histograms.linesAhead += 1
                } else {
                    _ = histograms.line.record(Self.microseconds(written - read))
                }
            }
        }
    }

    /// A hook process started at `started` for an event whose sample has the time `read` (both
    /// ``wallNow()`` seconds); one started before it counts as ahead.
    public func recordHook(readAt read: Double, startedAt started: Double) {
        histograms.withLock { histograms in
            if started < read {
                histograms.hooksAhead += 1
            } else {
                _ = histograms.hook.record(Self.microseconds(started - read))
            }
        }
    }

    private static func microseconds(_ seconds: Double) -> UInt64 {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return UInt64(min(seconds * 1_000_000, 59_000_000))
    }

    /// The report: for each histogram a summary line (`count p50 p90 p99 p99.9 max`, µs, and how
    /// many came before their sample's time: `ahead N`) and HdrHistogram's percentile
    /// distribution (values in milliseconds).
    public func report() -> String {
        histograms.withLock { histograms in
            var text = ""
            for (name, histogram, ahead) in [("line", histograms.line, histograms.linesAhead), ("hook", histograms.hook, histograms.hooksAhead)] {
                text += "# \(name): count \(histogram.totalCount)"
                for percentile in [50.0, 90.0, 99.0, 99.9] {
                    text += " p\(percentile == 99.9 ? "99.9" : String(Int(percentile))) \(histogram.totalCount == 0 ? 0 : histogram.valueAtPercentile(percentile))"
                }
                text += " max \(histogram.totalCount == 0 ? 0 : histogram.max) (microseconds)"
                text += " ahead \(ahead) (before their sample's time, not counted)\n"
                if histogram.totalCount > 0 {
                    histogram.outputPercentileDistribution(to: &text, outputValueUnitScalingRatio: 1000)
                }
                text += "\n"
            }
            return text
        }
    }

    /// Writes ``report()`` to ``path`` (replacing it).
    public func writeReport() {
        let text = report()
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var remaining = Array(text.utf8)[...]
        while !remaining.isEmpty {
            let written = remaining.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            remaining = remaining.dropFirst(written)
        }
    }
}
