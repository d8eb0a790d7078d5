#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The clock of range-sample timestamps: `CLOCK_MONOTONIC` in seconds (since boot on Linux), so
/// samples of different sessions and processes compare, and wall-clock changes do not matter.
public enum MonotonicTime {
    /// Now, in seconds.
    public static func seconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1_000_000_000
    }
}
