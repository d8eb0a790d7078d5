import Foundation
@testable import NearbyTerminal
import Testing

/// `nearby uwb range` writes its numbers as `printf` does, without Foundation: byte for byte.
@Suite struct PrintfTextTests {
    @Test func fixedPointIsPrintfByteForByte() {
        var values: [Double] = [0, -0.0, 1, -1, 0.5, -0.5, 0.0005, -0.0005, 1.0005, 2.675, 10.25, -10.25, 0.125, 1e-9, -1e-9,
                                123_456.789_5, 655.35, 359.99, -180, 0.999_95, 9.999_5, -3.0, 1.5, 0.1, 0.2, 0.3]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let magnitude = [1.0, 10, 100, 1000, 0.01][Int.random(in: 0..<5, using: &generator)]
            values.append(Double.random(in: -magnitude...magnitude, using: &generator))
        }
        // Exact binary halves at each precision, where printf rounds half to even.
        for numerator in 0..<400 { values.append(Double(numerator) / 8) }
        for value in values {
            for (decimals, width) in [(3, 8), (2, 6), (1, 6), (1, 5), (3, 0), (0, 4)] {
                var bytes: [UInt8] = []
                PrintfText.append(value, decimals: decimals, width: width, to: &bytes)
                #expect(
                    String(decoding: bytes, as: UTF8.self) == String(format: "%\(width).\(decimals)f", value),
                    "\(value) as %\(width).\(decimals)f")
            }
        }
    }
}
