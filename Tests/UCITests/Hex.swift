// Hex helpers for the test vectors.

import NearbyTestSupport

/// The bytes of a hex string (``NearbyTestSupport/hexBytes(_:)``).
func bytes(_ hex: String) -> [UInt8] { hexBytes(hex) }

/// `"20 00 00 01"`.
func hex(_ bytes: [UInt8]) -> String {
    bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined(separator: " ")
}
