import Foundation
import NearbyBase
import Testing

/// The byte writers of the hot lines write exactly what the string writers and `printf` write.
@Suite struct JSONBytesTests {
    /// Values a run prints: distances, angles, confidences, times, and the edge cases.
    static let values: [Double] = {
        var values: [Double] = [0, -0.0, 1, -1, 0.5, -0.5, 0.0005, -0.0005, 0.0004999, 1.0005, 2.675, 10.25, -10.25, 0.125, 1e-9, -1e-9,
                                123_456.789_5, 655.35, 359.99, -180, 0.999_95, 9.999_5, 1e15, -3.0, 1.5, 0.1, 0.2, 0.3]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let magnitude = [1.0, 10, 100, 1000, 0.01][Int.random(in: 0..<5, using: &generator)]
            values.append(Double.random(in: -magnitude...magnitude, using: &generator))
        }
        // Exact binary halves at each precision, where printf rounds half to even.
        for numerator in 0..<400 { values.append(Double(numerator) / 8) }
        return values
    }()

    @Test func numbersAreJSONTextByteForByte() {
        for value in Self.values {
            for decimals in [0, 1, 2, 3, 6] {
                var bytes: [UInt8] = []
                JSONBytes.appendNumber(value, decimals: decimals, to: &bytes)
                #expect(String(decoding: bytes, as: UTF8.self) == JSONText.number(value, decimals: decimals), "\(value) with \(decimals) decimals")
            }
        }
        for value: Double? in [nil, .nan, .infinity, -.infinity] {
            var bytes: [UInt8] = []
            JSONBytes.appendNumber(value, decimals: 3, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == "null")
        }
    }

    /// `appendShortest` writes what `description` writes, on its integer path (centimetres,
    /// Q9.7 degrees, milliseconds, their sums) and on the values it hands to `description`.
    @Test func shortestIsDescriptionByteForByte() {
        var values: [Double] = [0, -0.0, 1, -1, 0.0001, -0.0001, 0.00015, 0.00001, 0.000099, 1e-9, 0.1 + 0.2, 1.0 / 3,
                                999_999.999_999_9, 999_999.875, 1_000_000, 1_000_000.5, 999_999_999.9999, 1_000_000_000, 0.000_123_4, 0.000_099_999_99, 1e15, 1e16, 4_503_599_627_370_496, 123_456.789_5, .ulpOfOne,
                                .leastNonzeroMagnitude, .greatestFiniteMagnitude, 2.675, 655.35, -180, 359.99]
        for units in -70_000...70_000 { values.append(Double(units) / 100) }   // centimetres
        for units in -23_040...23_040 { values.append(Double(units) / 128) }   // Q9.7 degrees
        for units in stride(from: 0, through: 10_000_000, by: 997) { values.append(Double(units) / 1000) }
        for units in stride(from: -99_999, through: 99_999, by: 7) { values.append(Double(units) / 10_000) }
        for units in stride(from: -99_999_999, through: 99_999_999, by: 9_973) { values.append(Double(units) / 10_000_000) }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let magnitude = [1.0, 10, 100, 1000, 0.01, 1e9, 1e12][Int.random(in: 0..<7, using: &generator)]
            values.append(Double.random(in: -magnitude...magnitude, using: &generator))
        }
        for value in values {
            var bytes: [UInt8] = []
            JSONBytes.appendShortest(value, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == value.description, "\(value)")
        }
    }

    @Test func stringsIntegersAndBooleans() {
        for text in ["sim-1", "Kitchen \"tag\"", "back\\slash", "tab\tnew\nline\r", "\u{01}\u{1F}", "naïve ✓ 🔑", ""] {
            var bytes: [UInt8] = []
            JSONBytes.appendString(text, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == JSONText.string(text))
        }
        var bytes: [UInt8] = []
        JSONBytes.appendString(nil, to: &bytes)
        JSONBytes.appendInteger(-42, to: &bytes)
        JSONBytes.appendInteger(0, to: &bytes)
        JSONBytes.appendInteger(Int64.max, to: &bytes)
        JSONBytes.appendInteger(nil, to: &bytes)
        JSONBytes.appendBool(true, to: &bytes)
        JSONBytes.appendBool(false, to: &bytes)
        JSONBytes.appendBool(nil, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "null-420\(Int64.max)nulltruefalsenull")
    }
}
