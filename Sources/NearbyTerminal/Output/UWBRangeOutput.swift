import Foundation
import Ranging
public import UCI

/// What `nearby uwb range` prints: range samples (lines or JSON objects) on standard output,
/// flushed at once; notes on standard output in text mode and on standard error in JSON mode;
/// events on standard error.
public struct UWBRangeOutput: Sendable {
    /// One JSON object per sample (keys `t_s`, `peer`, `distance_m`, `azimuth_deg`,
    /// `elevation_deg`, `fom`, `nlos`, `status`) instead of lines.
    public let json: Bool

    /// An output in text or JSON mode.
    public init(json: Bool) {
        self.json = json
    }

    /// Prints one sample; `start` is time zero (``UWBDevice/MonotonicTime`` seconds).
    public func sample(_ peerSample: UCIPeerRangeSample, start: Double) {
        Self.emit(line(peerSample, start: start))
    }

    /// The line (or JSON object) for one sample:
    /// `   1.234 s  0x0002    1.50 m  azimuth   10.0°  elevation   0.0°  FoM 100  LoS`.
    public func line(_ peerSample: UCIPeerRangeSample, start: Double) -> String {
        let sample = peerSample.sample
        let time = max(0, sample.timestamp - start)
        let status = UCIStatus(rawValue: sample.status)
        let statusName = status.name ?? String(format: "0x%02X", sample.status)
        if json {
            let fields: [(String, String)] = [
                ("t_s", String(format: "%.3f", time)),
                ("peer", "\"\(peerSample.peer)\""),
                ("distance_m", Self.number(sample.distance)),
                ("azimuth_deg", Self.number(sample.azimuth)),
                ("elevation_deg", Self.number(sample.elevation)),
                ("fom", sample.figureOfMerit.map { "\($0)" } ?? "null"),
                ("nlos", sample.isNonLineOfSight.map { $0 ? "true" : "false" } ?? "null"),
                ("status", "\"\(statusName)\""),
            ]
            return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
        }
        var line = String(format: "%8.3f s  ", time) + "\(peerSample.peer)"
        guard sample.isValid, let distance = sample.distance else {
            return line + "  no measurement: \(status)"
        }
        line += String(format: "  %6.2f m", distance)
        if let azimuth = sample.azimuth { line += String(format: "  azimuth %6.1f°", azimuth) }
        if let elevation = sample.elevation { line += String(format: "  elevation %5.1f°", elevation) }
        if let fom = sample.figureOfMerit { line += "  FoM \(fom)" }
        if let nlos = sample.isNonLineOfSight { line += nlos ? "  NLoS" : "  LoS" }
        return line
    }

    /// A note for people: standard output in text mode, standard error in JSON mode.
    public func note(_ text: String) {
        if json { Console.error(text) } else { Self.emit(text) }
    }

    /// An event (session or dev-kit news): standard error.
    @Sendable public func event(_ text: String) {
        Console.error(text)
    }

    private static func number(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "null" }
        return "\(value)"
    }

    /// One line on standard output, flushed (a pipe must see every sample at once).
    private static func emit(_ line: String) {
        Console.out(line)
    }
}
