import ArgumentParser
import Foundation
import Ranging

/// `--zones 1.5,3` (with a hysteresis and dwell) as a ``ZoneMap``: shared by `bench`, `range`
/// and `demo`.
enum ZoneOption {
    /// Parses comma-separated increasing boundaries in metres.
    /// - Throws: `ValidationError` naming the bad field or the map's problem.
    static func map(_ text: String, hysteresis: Double = 0.2, dwell: Double = 0.3) throws -> ZoneMap {
        var boundaries: [Double] = []
        for field in text.split(separator: ",", omittingEmptySubsequences: false) {
            let text = field.trimmingCharacters(in: .whitespaces)
            guard let value = Double(text), value.isFinite, value > 0 else {
                throw ValidationError("--zones: '\(text)' is not a distance in metres; write increasing boundaries like 1.5,3")
            }
            boundaries.append(value)
        }
        do {
            return try ZoneMap(boundaries: boundaries, hysteresis: hysteresis, minimumDwell: dwell)
        } catch {
            throw ValidationError("--zones/--hysteresis/--dwell: \(error)")
        }
    }
}
