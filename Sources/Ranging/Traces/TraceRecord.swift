/// One row of a trace: a sample and, if known, the ground-truth distance at its time.
public struct TraceRecord: Sendable, Hashable {
    /// The measurement.
    public var sample: RangeSample
    /// Ground-truth distance in metres (`truth_m`), `nil` if unknown.
    public var truth: Double?

    /// Creates a record.
    public init(sample: RangeSample, truth: Double? = nil) {
        self.sample = sample
        self.truth = truth
    }
}
