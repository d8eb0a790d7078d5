import Simulation
import Testing

/// A trace of the demo scenario crosses the zone thresholds (3 m, 1.5 m) the expected number of
/// times, and its sway around 3 m makes raw thresholding flap while hysteresis holds.
@Suite struct SceneDemoTraceTests {
    /// Crossings of `threshold` by a sequence (a value equal to the threshold counts as outside).
    static func crossings(_ values: [Double], _ threshold: Double) -> Int {
        zip(values, values.dropFirst()).filter { ($0 < threshold) != ($1 < threshold) }.count
    }

    /// Zone transitions with hysteresis: enter below `threshold - band`, leave above `threshold + band`.
    static func transitions(_ values: [Double], _ threshold: Double, band: Double) -> Int {
        guard var inside = values.first.map({ $0 < threshold }) else { return 0 }
        var count = 0
        for value in values {
            if inside && value > threshold + band || !inside && value < threshold - band {
                inside.toggle()
                count += 1
            }
        }
        return count
    }

    /// Running median of the last 5 values (what a minimal smoother would do against spikes).
    static func median5(_ values: [Double]) -> [Double] {
        values.indices.map { index in
            let window = values[max(0, index - 4)...index].sorted()
            return window[window.count / 2]
        }
    }

    @Test func demoCrossesTheZonesTheExpectedNumberOfTimes() throws {
        var scene = try Scenario.demo.makeScene(seed: 2025)
        let rounds = try scene.trace(from: .host, to: .accessory(0), interval: 0.2, duration: 60.1)
        #expect(rounds.count == 301)
        let truth = rounds.map(\.truth.distance)
        #expect(Self.crossings(truth, 3) == 8)
        #expect(Self.crossings(truth, 1.5) == 4)
        #expect(Self.transitions(truth, 3, band: 0.2) == 2)  // the sway stays inside the hysteresis band
        #expect(Self.transitions(truth, 1.5, band: 0.2) == 4)

        let measured = rounds.compactMap(\.distance)
        #expect(Double(measured.count) > 0.85 * Double(rounds.count))
        let smoothed = Self.median5(measured)
        #expect(Self.transitions(smoothed, 3, band: 0.2) == 2)
        #expect(Self.transitions(smoothed, 1.5, band: 0.2) == 4)
        // Without hysteresis the noisy sway around 3 m flaps more often than the truth crosses.
        #expect(Self.crossings(measured, 3) > 8)
    }

    @Test func demoDirectionSweepsAcrossTheFront() throws {
        var scene = try Scenario.demo.makeScene(noise: .ideal)
        let early = try scene.measure(from: .host, to: .accessory(0), at: 1)
        let late = try scene.measure(from: .host, to: .accessory(0), at: 58)
        #expect(abs((early.azimuth ?? 0) - 30) < 0.01)  // front right
        #expect(abs((late.azimuth ?? 0) - -40) < 0.01)  // front left
        #expect((early.elevation ?? 0) > 0)  // carried above the desk
    }
}
