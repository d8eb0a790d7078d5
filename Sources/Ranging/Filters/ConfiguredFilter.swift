/// One of the smoothing filters, chosen at run time, without boxing: an enum dispatched with a
/// `switch`, so a pipeline built from a name still allocates nothing per sample.
public enum BaseFilter: RangeFilter {
    /// ``RawFilter``.
    case raw(RawFilter)
    /// ``MedianAverageFilter`` (`median3`).
    case medianAverage(MedianAverageFilter)
    /// ``MovingAverageFilter`` (`ma10`).
    case movingAverage(MovingAverageFilter)
    /// ``ExponentialMovingAverageFilter`` (`ema`).
    case exponential(ExponentialMovingAverageFilter)
    /// ``OneEuroFilter`` (`one-euro`).
    case oneEuro(OneEuroFilter)
    /// ``KalmanFilter`` (`kalman`).
    case kalman(KalmanFilter)

    /// The filter of `kind` with its standard parameters for `domain`.
    public init(_ kind: FilterSpec.Kind, domain: FilterDomain) {
        switch kind {
        case .raw: self = .raw(RawFilter())
        case .median3: self = .medianAverage(MedianAverageFilter(.standard(for: domain)))
        case .ma10: self = .movingAverage(MovingAverageFilter(.standard(for: domain)))
        case .ema: self = .exponential(ExponentialMovingAverageFilter(.standard(for: domain)))
        case .oneEuro: self = .oneEuro(OneEuroFilter(.standard(for: domain)))
        case .kalman: self = .kalman(KalmanFilter(.standard(for: domain)))
        }
    }

    // Each case moves its payload out, parks a payload-free value in `self` while the payload is
    // mutated, and moves it back: the payload's buffers stay uniquely referenced, so mutating
    // them never copies (no copy-on-write allocation per sample).

    /// Dispatches to the wrapped filter.
    public mutating func update(_ input: FilterInput) -> Double {
        switch self {
        case .raw:
            return input.value
        case .medianAverage(var filter):
            self = .raw(RawFilter())
            let output = filter.update(input)
            self = .medianAverage(filter)
            return output
        case .movingAverage(var filter):
            self = .raw(RawFilter())
            let output = filter.update(input)
            self = .movingAverage(filter)
            return output
        case .exponential(var filter):
            let output = filter.update(input)
            self = .exponential(filter)
            return output
        case .oneEuro(var filter):
            let output = filter.update(input)
            self = .oneEuro(filter)
            return output
        case .kalman(var filter):
            let output = filter.update(input)
            self = .kalman(filter)
            return output
        }
    }

    /// Resets the wrapped filter.
    public mutating func reset() {
        switch self {
        case .raw:
            break
        case .medianAverage(var filter):
            self = .raw(RawFilter())
            filter.reset()
            self = .medianAverage(filter)
        case .movingAverage(var filter):
            self = .raw(RawFilter())
            filter.reset()
            self = .movingAverage(filter)
        case .exponential(var filter):
            filter.reset()
            self = .exponential(filter)
        case .oneEuro(var filter):
            filter.reset()
            self = .oneEuro(filter)
        case .kalman(var filter):
            filter.reset()
            self = .kalman(filter)
        }
    }

    /// The wrapped filter's rate estimate, if it has one.
    public var rate: Double? {
        switch self {
        case .oneEuro(let filter): filter.rate
        case .kalman(let filter): filter.rate
        case .raw, .medianAverage, .movingAverage, .exponential: nil
        }
    }
}

/// A filter chain chosen at run time from a ``FilterSpec``: an optional ``HampelFilter`` in front
/// of a ``BaseFilter``. This is the filter type of a pipeline configured by name
/// (`RangingPipeline<ConfiguredFilter>`).
public struct ConfiguredFilter: RangeFilter {
    /// The outlier filter run first, if any.
    public var prefilter: HampelFilter?
    /// The smoothing filter.
    public var base: BaseFilter

    /// Builds the chain named by `spec` with the standard parameters for `domain`.
    public init(_ spec: FilterSpec, domain: FilterDomain) {
        self.prefilter = spec.hampel ? HampelFilter(.standard(for: domain)) : nil
        self.base = BaseFilter(spec.kind, domain: domain)
    }

    /// Builds a chain from explicit filters (custom parameters).
    public init(prefilter: HampelFilter? = nil, base: BaseFilter) {
        self.prefilter = prefilter
        self.base = base
    }

    /// Runs the Hampel filter (if any), then the smoothing filter.
    @inline(__always)
    public mutating func update(_ input: FilterInput) -> Double {
        var input = input
        if prefilter != nil {
            input.value = prefilter!.update(input)
        }
        return base.update(input)
    }

    /// Resets both filters.
    public mutating func reset() {
        prefilter?.reset()
        base.reset()
    }

    /// The smoothing filter's rate estimate, if it has one.
    public var rate: Double? { base.rate }
}
