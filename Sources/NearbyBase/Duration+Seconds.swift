extension Duration {
    /// The duration in seconds (attosecond precision folded into a `Double`).
    @inlinable
    public var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }

    /// The duration in whole milliseconds, truncated towards zero.
    @inlinable
    public var inMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }

    /// A duration of `seconds` (rounded to the nanosecond; non-finite or negative values give
    /// zero).
    @inlinable
    public static func seconds(exactly seconds: Double) -> Duration {
        guard seconds.isFinite, seconds > 0 else { return .zero }
        return .nanoseconds(Int64(seconds * 1e9 + 0.5))
    }

    /// Short text for messages: `0.25 s`, `2 s`, `1.5 s` (at most 3 decimals, no trailing zeros).
    public var secondsText: String { DecimalText.trimmed(inSeconds, decimals: 3) + " s" }
}

extension Duration {
    /// Whole seconds or milliseconds for messages: `2 s`, `1500 ms` (truncated to the
    /// millisecond).
    public var compactText: String {
        let ms = inMilliseconds
        return ms % 1000 == 0 ? "\(ms / 1000) s" : "\(ms) ms"
    }
}
