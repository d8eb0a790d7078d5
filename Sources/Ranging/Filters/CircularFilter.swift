/// Applies any ``RangeFilter`` to an angle in degrees that wraps at ±180°.
///
/// Each input is unwrapped against the previous output (`x' = previous + wrap(x − previous)`,
/// wrap into −180 ..< 180), the inner filter runs on the continuous unwrapped values, and its
/// output is wrapped back into −180 ..< 180. So 179° followed by −179° is a 2° step, never a
/// 358° one, and averages across the wrap point stay near ±180° instead of collapsing to 0°.
/// This is Android's `MedAvgRotationFilter` idea (shift samples below mean − 180° by 360°)
/// generalised to every filter.
public struct CircularFilter<Inner: RangeFilter>: RangeFilter {
    /// The filter running on unwrapped angles.
    public private(set) var inner: Inner
    private var previous: Double?

    /// Wraps `inner` (whose parameters are in degrees).
    public init(_ inner: Inner) {
        self.inner = inner
    }

    /// Filters an angle in degrees; returns an angle in −180 ..< 180.
    public mutating func update(_ input: FilterInput) -> Double {
        var unwrapped = input
        if let previous {
            unwrapped.value = previous + Angles.wrap(input.value - previous)
        }
        let output = inner.update(unwrapped)
        previous = output
        return Angles.wrap(output)
    }

    /// Resets the inner filter and the unwrapping reference.
    public mutating func reset() {
        inner.reset()
        previous = nil
    }

    /// The inner filter's rate, degrees/s.
    public var rate: Double? { inner.rate }

    /// The inner filter's variance, degrees².
    public var variance: Double? { inner.variance }
}
