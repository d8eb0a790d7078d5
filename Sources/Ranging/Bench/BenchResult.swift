/// The metrics of one filter on one trace (`nearby bench`). Accuracy fields are `nil` (JSON
/// `null`) when the trace has no ground truth. Definitions: `specs/filters.md`, "Metrics".
public struct BenchResult: Sendable, Hashable {
    /// The trace's name (its path as given).
    public var trace: String
    /// The filter's canonical name.
    public var filter: String
    /// Number of samples (rows) in the trace.
    public var samples: Int
    /// Root-mean-square error of the smoothed distance against truth, metres.
    public var rmse: Double?
    /// Mean error (smoothed − truth), metres.
    public var bias: Double?
    /// RMSE after subtracting ``bias`` (the standard deviation of the error), metres.
    public var rmseDebiased: Double?
    /// Median of the absolute error, metres.
    public var p50AbsoluteError: Double?
    /// 95th percentile of the absolute error, metres.
    public var p95AbsoluteError: Double?
    /// Standard deviation of the output where the truth is static, metres (pooled over the
    /// static segments).
    public var jitter: Double?
    /// Time shift of the truth that minimises the RMSE, seconds (positive = the output lags);
    /// 0 for a trace whose truth never moves.
    public var lag: Double?
    /// Fraction of samples with truth whose reported zone equals the truth zone.
    public var zoneAccuracy: Double?
    /// Number of reported zone changes.
    public var zoneTransitions: Int
    /// Number of truth zone changes.
    public var truthZoneTransitions: Int?
    /// Reported zone reversals within 2 s that the truth does not have (all such reversals when
    /// the trace has no truth).
    public var zoneFlaps: Int
    /// Mean delay from a truth zone crossing to the matching reported transition, seconds.
    public var zoneLatency: Double?
    /// Cost of the whole pipeline (filter, direction, zones) per sample, nanoseconds.
    public var nanosecondsPerSample: Double
    /// `true` if the truth never moves by more than ``BenchMetrics/staticTolerance`` (a static
    /// trace), `nil` without truth.
    public var truthIsStatic: Bool?

    /// Creates a result.
    public init(
        trace: String, filter: String, samples: Int, rmse: Double?, bias: Double?, rmseDebiased: Double?,
        p50AbsoluteError: Double? = nil, p95AbsoluteError: Double?, jitter: Double?, lag: Double?, zoneAccuracy: Double?, zoneTransitions: Int,
        truthZoneTransitions: Int?, zoneFlaps: Int, zoneLatency: Double?, nanosecondsPerSample: Double,
        truthIsStatic: Bool? = nil
    ) {
        self.trace = trace
        self.filter = filter
        self.samples = samples
        self.rmse = rmse
        self.bias = bias
        self.rmseDebiased = rmseDebiased
        self.p50AbsoluteError = p50AbsoluteError
        self.p95AbsoluteError = p95AbsoluteError
        self.jitter = jitter
        self.lag = lag
        self.zoneAccuracy = zoneAccuracy
        self.zoneTransitions = zoneTransitions
        self.truthZoneTransitions = truthZoneTransitions
        self.zoneFlaps = zoneFlaps
        self.zoneLatency = zoneLatency
        self.nanosecondsPerSample = nanosecondsPerSample
        self.truthIsStatic = truthIsStatic
    }

    /// The JSON keys of a result, in output order.
    public static let jsonKeys = [
        "trace", "filter", "samples", "rmse_m", "bias_m", "rmse_debiased_m", "p50_abs_err_m", "p95_abs_err_m", "jitter_m", "lag_s",
        "zone_accuracy", "zone_transitions", "truth_zone_transitions", "zone_flaps", "zone_latency_s", "ns_per_sample",
        "truth_static",
    ]

    /// The result as one JSON object with the keys of ``jsonKeys``; unknown values are `null`.
    public var json: String {
        let values: [String] = [
            Format.jsonString(trace), Format.jsonString(filter), String(samples),
            Format.json(rmse), Format.json(bias), Format.json(rmseDebiased), Format.json(p50AbsoluteError),
            Format.json(p95AbsoluteError),
            Format.json(jitter), Format.json(lag, decimals: 3), Format.json(zoneAccuracy),
            String(zoneTransitions), truthZoneTransitions.map { String($0) } ?? "null", String(zoneFlaps),
            Format.json(zoneLatency, decimals: 3), Format.json(nanosecondsPerSample, decimals: 1),
            truthIsStatic.map { String($0) } ?? "null",
        ]
        let members = zip(Self.jsonKeys, values).map { "\"\($0)\":\($1)" }
        return "{" + members.joined(separator: ",") + "}"
    }
}
