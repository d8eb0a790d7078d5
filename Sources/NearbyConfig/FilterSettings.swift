public import Ranging

/// `[filter]`: the smoothing filter by name and, optionally, its parameters for distances
/// (`[filter.kalman]`, `[filter.one_euro]`, ...). Unset parameters keep the tuned standard
/// values (`specs/filters.md`); angles always use the standard angle parameters.
public struct FilterSettings: Sendable, Hashable {
    /// The filter (`name`, a `FilterSpec` name (Ranging) such as `kalman` or `hampel+one-euro`).
    public var spec: FilterSpec?
    /// `[filter.imm]`.
    public var imm: IMMFilter.Parameters?
    /// `[filter.kalman]`.
    public var kalman: KalmanFilter.Parameters?
    /// `[filter.one_euro]`.
    public var oneEuro: OneEuroFilter.Parameters?
    /// `[filter.hampel]` (used when the name starts with `hampel`).
    public var hampel: HampelFilter.Parameters?
    /// `[filter.median3]`.
    public var medianAverage: MedianAverageFilter.Parameters?
    /// `[filter.ma10]`.
    public var movingAverage: MovingAverageFilter.Parameters?
    /// `[filter.ema]`.
    public var exponential: ExponentialMovingAverageFilter.Parameters?

    /// Creates settings; `nil` = not set.
    public init(spec: FilterSpec? = nil) {
        self.spec = spec
    }

    /// The filter in effect (`FilterSpec.default` when unset).
    public var effectiveSpec: FilterSpec { spec ?? .default }

    /// The distance filter chain: ``effectiveSpec`` with the configured parameters.
    public func distanceFilter() -> ConfiguredFilter {
        let spec = effectiveSpec
        let base: BaseFilter =
            switch spec.kind {
            case .raw: .raw
            case .median3: .medianAverage(medianAverage ?? .standard(for: .distance))
            case .ma10: .movingAverage(movingAverage ?? .standard(for: .distance))
            case .ema: .exponential(exponential ?? .standard(for: .distance))
            case .oneEuro: .oneEuro(oneEuro ?? .standard(for: .distance))
            case .kalman: .kalman(kalman ?? .standard(for: .distance))
            case .imm: .imm(imm ?? .standard(for: .distance))
            }
        return ConfiguredFilter(prefilter: spec.hampel ? (hampel ?? .standard(for: .distance)) : nil, base: base)
    }

    /// The angle filter chain: ``effectiveSpec`` with the standard angle parameters.
    public func angleFilter() -> ConfiguredFilter {
        ConfiguredFilter(effectiveSpec, domain: .angle)
    }

    /// These settings with every value set in `flags` replacing this one (flags win).
    public func overridden(by flags: FilterSettings) -> FilterSettings {
        var result = self
        result.spec = flags.spec ?? spec
        result.imm = flags.imm ?? imm
        result.kalman = flags.kalman ?? kalman
        result.oneEuro = flags.oneEuro ?? oneEuro
        result.hampel = flags.hampel ?? hampel
        result.medianAverage = flags.medianAverage ?? medianAverage
        result.movingAverage = flags.movingAverage ?? movingAverage
        result.exponential = flags.exponential ?? exponential
        return result
    }
}
