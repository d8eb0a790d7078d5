/// Gathers host-to-host samples during a survey and turns them into ``HostSurvey/Range``s:
/// the median range of each (observer, target) pair and, when at least half of its samples
/// had one with a figure of merit of ``minimumFigureOfMerit`` or more (below it a kit cannot
/// tell front from back), the median azimuth.
public struct SurveyCollector: Sendable {
    private var samples: [Key: (distances: [Double], azimuths: [Double])] = [:]

    private struct Key: Hashable, Comparable {
        var observer: String
        var target: String
        static func < (a: Key, b: Key) -> Bool { (a.observer, a.target) < (b.observer, b.target) }
    }

    /// Azimuths with a lower figure of merit are not used.
    public static let minimumFigureOfMerit = 40

    /// An empty collection.
    public init() {}

    /// One sample of `target` measured by `observer`.
    public mutating func add(observer: String, target: String, distance: Double?, azimuth: Double?, figureOfMerit: Int?) {
        guard observer != target else { return }
        let key = Key(observer: observer, target: target)
        if let distance, distance.isFinite { samples[key, default: ([], [])].distances.append(distance) }
        if let azimuth, azimuth.isFinite, (figureOfMerit ?? 0) >= Self.minimumFigureOfMerit {
            samples[key, default: ([], [])].azimuths.append(azimuth)
        }
    }

    /// One range per pair with distances, in (observer, target) order.
    public var ranges: [HostSurvey.Range] {
        samples.keys.sorted().compactMap { key in
            guard let entry = samples[key], let distance = Self.median(entry.distances) else { return nil }
            let azimuth = entry.azimuths.count * 2 >= entry.distances.count ? Self.median(entry.azimuths) : nil
            return HostSurvey.Range(observer: key.observer, target: key.target, distance: distance, samples: entry.distances.count, azimuth: azimuth)
        }
    }

    /// The median of `values`, `nil` for none.
    public static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
}
