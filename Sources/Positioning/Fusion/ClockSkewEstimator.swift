/// How far a host's clock is from the watcher's (specs/house.md, "Clocks").
///
/// Every live (not retained) state carries the host's `time`; it arrives at the watcher after
/// a delay that is never negative and, on a LAN, a few milliseconds at best. So
/// `arrival - time` over a window is the host's clock offset plus the smallest delay of the
/// window: its minimum estimates the offset. A negative minimum proves the host's clock is
/// ahead; a minimum of more than ``tolerance`` means it is behind (or every message of the
/// window was late, which a window of ``window`` messages makes unlikely).
public struct ClockSkewEstimator: Sendable, Hashable {
    /// Messages the minimum is taken over.
    public let window: Int
    /// Offsets within ± this many seconds count as no skew (a LAN's delay).
    public let tolerance: Double
    private var offsets: [Double] = []
    private var next = 0

    /// - Parameters:
    ///   - window: messages per estimate (≥ 1).
    ///   - tolerance: seconds of offset that are not reported or corrected.
    public init(window: Int = 64, tolerance: Double = 0.1) {
        self.window = max(window, 1)
        self.tolerance = tolerance
    }

    /// Adds one live message: sent at `time` by the host's clock, received at `arrival` by
    /// the watcher's.
    public mutating func add(time: Double, arrival: Double) {
        let offset = arrival - time
        guard offset.isFinite else { return }
        if offsets.count < window {
            offsets.append(offset)
        } else {
            offsets[next] = offset
        }
        next = (next + 1) % window
    }

    /// Messages seen in the window.
    public var count: Int { offsets.count }

    /// The host's clock offset (seconds to add to its times to get the watcher's), or `nil`
    /// before ``minimumCount`` messages.
    public var offset: Double? {
        guard offsets.count >= Self.minimumCount else { return nil }
        return offsets.min()
    }

    /// The correction to add to the host's times: ``offset`` when it is beyond ``tolerance``,
    /// else 0.
    public var correction: Double {
        guard let offset, abs(offset) > tolerance else { return 0 }
        return offset
    }

    /// Messages needed for an estimate.
    public static let minimumCount = 8
}
