import NearbyBase

/// Fixed-point numbers as C's `printf` writes them, without Foundation's `String(format:)`
/// (which costs microseconds per call): `nearby uwb range` formats every sample with it.
enum PrintfText {
    /// Appends `value` as `printf("%<width>.<decimals>f")` writes it, byte for byte: the exact
    /// binary value rounded half to even, a `-` for a negative value (also `-0.0`), padded with
    /// spaces on the left to `width`; no allocation. Values too large for an exact integer of
    /// units (|value| × 10^decimals ≥ 2^52) and non-finite ones are written as Swift prints them.
    static func append(_ value: Double, decimals: Int, width: Int = 0, to out: inout [UInt8]) {
        let decimals = min(max(decimals, 0), 12)
        var scale: Double = 1
        var integerScale: UInt64 = 1
        for _ in 0..<decimals {
            scale *= 10
            integerScale *= 10
        }
        let magnitude = abs(value)
        let product = magnitude * scale
        guard value.isFinite, product < 4_503_599_627_370_496 else {
            let text = value.isNaN ? "nan" : value.isInfinite ? (value < 0 ? "-inf" : "inf") : "\(value)"
            for _ in 0..<max(0, width - text.utf8.count) { out.append(UInt8(ascii: " ")) }
            out.append(contentsOf: text.utf8)
            return
        }
        var units = UInt64(product)
        let fraction = product - Double(units)
        if fraction > 0.5 {
            units += 1
        } else if fraction == 0.5 {
            // A tie in floating point: the exact product decides (a fused multiply-add).
            let residual = (-(Double(units) + 0.5)).addingProduct(magnitude, scale)
            if residual > 0 || (residual == 0 && units % 2 == 1) { units += 1 }
        }
        let negative = value.sign == .minus
        let whole = units / integerScale
        var digits = 1
        var probe = whole
        while probe >= 10 {
            probe /= 10
            digits += 1
        }
        let length = (negative ? 1 : 0) + digits + (decimals > 0 ? decimals + 1 : 0)
        for _ in 0..<max(0, width - length) { out.append(UInt8(ascii: " ")) }
        if negative { out.append(UInt8(ascii: "-")) }
        var divisor: UInt64 = 1
        for _ in 1..<digits { divisor *= 10 }
        while divisor > 0 {
            out.append(UInt8(ascii: "0") + UInt8(whole / divisor % 10))
            divisor /= 10
        }
        guard decimals > 0 else { return }
        out.append(UInt8(ascii: "."))
        let part = units % integerScale
        divisor = integerScale / 10
        while divisor > 0 {
            out.append(UInt8(ascii: "0") + UInt8(part / divisor % 10))
            divisor /= 10
        }
    }
}
