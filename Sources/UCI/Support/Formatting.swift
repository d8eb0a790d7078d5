import NearbyBase

// Text formatting shared by descriptions, errors and field dumps (hex and decimals: NearbyBase).

/// `"INVALID_PARAM (0x04)"`, or `"unknown (0x2F)"` when the value has no name.
func codeDescription(_ name: String?, _ raw: UInt8) -> String {
    "\(name ?? "unknown") (\(Hex.prefixed(raw)))"
}
