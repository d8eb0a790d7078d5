import NearbyTestSupport

// Helpers shared by the NI accessory protocol tests.

/// Bytes from the reference's (specs/reference/ni-accessory-protocol.md) hex notation:
/// `"01 00 | 3f f5"` (spaces and `|` ignored).
func niBytes(_ hex: String) -> [UInt8] { hexBytes(hex) }

/// The seeded generator of NearbyTestSupport (fuzz runs reproduce).
typealias NITestRandom = SeededGenerator

/// The reference's TV-1: message 0x01, ACD 1.0 carrying UWB config data v1.1 (38 bytes).
let niTV1 = niBytes(
    "01 | 01 00 00 00 | 00 | 00 00 00 00 00 00 00 00 00 00 | 15 | 01 00 01 00 | 3f f5 03 00 | b8 0b 00 00 | 00 00 01 01 | 01 | 12 00 | 19 00"
)

/// The reference's TV-2: shareable configuration data v1.1 (30 bytes, payload of 0x0B).
let niTV2 = niBytes("01 00 01 00 19 45 55 a8 5f 00 00 0b 09 06 00 10 0e c6 00 03 39 7b 28 d4 b8 d7 87 b4 64 00")
