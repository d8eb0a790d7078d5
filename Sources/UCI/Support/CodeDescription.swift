/// `"INVALID_PARAM (0x04)"`, or `"unknown (0x2F)"` when the value has no name.
func codeDescription(_ name: String?, _ raw: UInt8) -> String {
    "\(name ?? "unknown") (\(hex(raw)))"
}
