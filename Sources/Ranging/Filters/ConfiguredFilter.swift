/// The smoothing filter of a ``ConfiguredFilter`` and its parameters.
public enum BaseFilter: Sendable, Hashable {
    /// ``RawFilter``.
    case raw
    /// ``MedianAverageFilter`` (`median3`).
    case medianAverage(MedianAverageFilter.Parameters)
    /// ``MovingAverageFilter`` (`ma10`).
    case movingAverage(MovingAverageFilter.Parameters)
    /// ``ExponentialMovingAverageFilter`` (`ema`).
    case exponential(ExponentialMovingAverageFilter.Parameters)
    /// ``OneEuroFilter`` (`one-euro`).
    case oneEuro(OneEuroFilter.Parameters)
    /// ``KalmanFilter`` (`kalman`).
    case kalman(KalmanFilter.Parameters)
    /// ``IMMFilter`` (`imm`).
    case imm(IMMFilter.Parameters)

    /// The filter of `kind` with its standard parameters for `domain`.
    public init(_ kind: FilterSpec.Kind, domain: FilterDomain) {
        switch kind {
        case .raw: self = .raw
        case .median3: self = .medianAverage(.standard(for: domain))
        case .ma10: self = .movingAverage(.standard(for: domain))
        case .ema: self = .exponential(.standard(for: domain))
        case .oneEuro: self = .oneEuro(.standard(for: domain))
        case .kalman: self = .kalman(.standard(for: domain))
        case .imm: self = .imm(.standard(for: domain))
        }
    }
}

/// A filter chain chosen at run time: an optional ``HampelFilter`` in front of one smoothing
/// filter (``BaseFilter``). This is the filter type of a pipeline configured by name
/// (`RangingPipeline<ConfiguredFilter>`, built from a ``FilterSpec``).
///
/// No boxing and no copying per sample: the chosen filter lives in its own stored property and
/// ``update(_:)`` dispatches with a `switch` on the kind, mutating it in place (an enum with the
/// filters as payloads would copy the payload in and out on every sample). Filters that keep
/// windows are optional, so only the chosen one allocates its buffers; the small fixed-size
/// ones are stored directly (no optional to unwrap on the hot path).
public struct ConfiguredFilter: RangeFilter {
    /// The smoothing filter's kind.
    public let kind: FilterSpec.Kind
    private var hampel: HampelFilter?
    private var median: MedianAverageFilter?
    private var average: MovingAverageFilter?
    private var exponential: ExponentialMovingAverageFilter
    private var oneEuro: OneEuroFilter
    private var kalman: KalmanFilter
    private var imm: IMMFilter

    /// Builds the chain named by `spec` with the standard parameters for `domain`.
    public init(_ spec: FilterSpec, domain: FilterDomain) {
        self.init(
            prefilter: spec.hampel ? HampelFilter.Parameters.standard(for: domain) : nil,
            base: BaseFilter(spec.kind, domain: domain))
    }

    /// Builds a chain with explicit parameters.
    /// - Parameters:
    ///   - prefilter: parameters of a Hampel filter run first, or `nil` for none.
    ///   - base: the smoothing filter and its parameters.
    public init(prefilter: HampelFilter.Parameters? = nil, base: BaseFilter) {
        hampel = prefilter.map { HampelFilter($0) }
        exponential = ExponentialMovingAverageFilter(.standard(for: .distance))
        oneEuro = OneEuroFilter(.standard(for: .distance))
        kalman = KalmanFilter(.standard(for: .distance))
        imm = IMMFilter(.standard(for: .distance))
        switch base {
        case .raw:
            kind = .raw
        case .medianAverage(let parameters):
            kind = .median3
            median = MedianAverageFilter(parameters)
        case .movingAverage(let parameters):
            kind = .ma10
            average = MovingAverageFilter(parameters)
        case .exponential(let parameters):
            kind = .ema
            exponential = ExponentialMovingAverageFilter(parameters)
        case .oneEuro(let parameters):
            kind = .oneEuro
            oneEuro = OneEuroFilter(parameters)
        case .kalman(let parameters):
            kind = .kalman
            kalman = KalmanFilter(parameters)
        case .imm(let parameters):
            kind = .imm
            imm = IMMFilter(parameters)
        }
    }

    /// The smoothing filter's rate estimate after the last update, if it has one (IMM, Kalman,
    /// One-Euro), unit/s.
    public private(set) var rate: Double?

    /// `true` if a Hampel filter runs first.
    public var hasPrefilter: Bool { hampel != nil }

    /// Runs the Hampel filter (if any), then the smoothing filter.
    @inline(__always)
    public mutating func update(_ input: FilterInput) -> Double {
        var input = input
        if hampel != nil {
            input.value = hampel!.update(input)
        }
        switch kind {
        case .raw: return input.value
        case .median3: return median!.update(input)
        case .ma10: return average!.update(input)
        case .ema: return exponential.update(input)
        case .oneEuro:
            let output = oneEuro.update(input)
            rate = oneEuro.rate
            return output
        case .kalman:
            let output = kalman.update(input)
            rate = kalman.rate
            return output
        case .imm:
            let output = imm.update(input)
            rate = imm.rate
            return output
        }
    }

    /// The smoothing filter's variance of its estimate, if it has one (IMM, Kalman), unit².
    public var variance: Double? {
        switch kind {
        case .kalman: kalman.variance
        case .imm: imm.variance
        default: nil
        }
    }

    /// Resets both filters.
    public mutating func reset() {
        hampel?.reset()
        median?.reset()
        average?.reset()
        exponential.reset()
        oneEuro.reset()
        kalman.reset()
        imm.reset()
        rate = nil
    }
}
