/// A filter chosen by name, as on the command line: `raw`, `median3`, `ma10`, `ema`,
/// `one-euro`, `kalman`, `imm`, `hampel`, a composition `hampel+NAME`, or `default`.
///
/// Naming scheme for compositions: `hampel+` in front of a base filter name runs the Hampel
/// outlier filter first (`hampel+kalman`, `hampel+ma10`). `hampel` alone is the Hampel filter
/// followed by `raw`. `default` is an alias of ``FilterSpec/default`` (also usable as
/// `hampel+default`). Names are case-sensitive; ``name`` is the canonical spelling.
public struct FilterSpec: Sendable, Hashable, CustomStringConvertible {
    /// The smoothing filter at the end of the chain.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// No smoothing (``RawFilter``).
        case raw
        /// Android's median of 3 (``MedianAverageFilter``).
        case median3
        /// Qorvo's 10-sample moving average (``MovingAverageFilter``).
        case ma10
        /// arduino-dw1000's 15-period EMA (``ExponentialMovingAverageFilter``).
        case ema
        /// The 1€ filter (``OneEuroFilter``).
        case oneEuro = "one-euro"
        /// Constant-velocity Kalman filter with innovation gate (``KalmanFilter``).
        case kalman
        /// Still + constant-velocity interacting multiple model with innovation gate
        /// (``IMMFilter``): the default.
        case imm
    }

    /// The smoothing filter.
    public var kind: Kind
    /// `true` to run the ``HampelFilter`` in front of ``kind``.
    public var hampel: Bool

    /// Creates a spec.
    public init(_ kind: Kind, hampel: Bool = false) {
        self.kind = kind
        self.hampel = hampel
    }

    /// The filter our benchmarks prove best (see `specs/filters.md` §6): `imm`.
    public static let `default` = FilterSpec(.imm)

    /// The baselines the default is judged against (`specs/filters.md` §6): `raw`, `median3`,
    /// `ma10`, `ema`, `one-euro` (what Android, Qorvo, arduino-dw1000 and the 1€ paper do).
    public static let baselines: [FilterSpec] = [.raw, .median3, .ma10, .ema, .oneEuro].map { FilterSpec($0) }

    /// The filters `nearby bench` runs when none is named: every base filter, `hampel`, and
    /// `hampel+` each smoothing filter.
    public static let benchmarkSet: [FilterSpec] =
        Kind.allCases.map { FilterSpec($0) } + Kind.allCases.map { FilterSpec($0, hampel: true) }

    /// Every accepted name (for help texts and error messages).
    public static var acceptedNames: [String] {
        ["default"] + Kind.allCases.map(\.rawValue) + ["hampel"] + Kind.allCases.filter { $0 != .raw }.map { "hampel+" + $0.rawValue }
    }

    /// Parses a name (see the type's description).
    /// - Throws: ``FilterSpecError`` naming the accepted names.
    public init(name: String) throws(FilterSpecError) {
        let trimmed = name.trimmingSpaces
        if trimmed == "default" {
            self = .default
            return
        }
        if trimmed == "hampel" {
            self.init(.raw, hampel: true)
            return
        }
        var rest = Substring(trimmed)
        var hampel = false
        if rest.hasPrefix("hampel+") {
            hampel = true
            rest = rest.dropFirst("hampel+".count)
        }
        if rest == "default" {
            var spec = FilterSpec.default
            if hampel { spec.hampel = true }
            self = spec
            return
        }
        guard let kind = Kind(rawValue: String(rest)) else {
            throw FilterSpecError(name: name)
        }
        self.init(kind, hampel: hampel)
    }

    /// The canonical name: `imm`, `hampel+kalman`, `hampel` (Hampel then raw).
    public var name: String {
        switch (hampel, kind) {
        case (false, _): kind.rawValue
        case (true, .raw): "hampel"
        case (true, _): "hampel+" + kind.rawValue
        }
    }

    /// The canonical name.
    public var description: String { name }
}

/// A filter name that ``FilterSpec/init(name:)`` does not know.
public struct FilterSpecError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The name as given.
    public var name: String

    /// Creates the error.
    public init(name: String) {
        self.name = name
    }

    /// Names the bad value and lists the accepted ones.
    public var description: String {
        "unknown filter '\(name)'; use one of: \(FilterSpec.acceptedNames.joined(separator: ", ")) "
            + "(prefix any of them with 'hampel+' to remove outliers first)"
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" { s.removeLast() }
        return String(s)
    }
}
