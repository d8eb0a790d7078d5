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
