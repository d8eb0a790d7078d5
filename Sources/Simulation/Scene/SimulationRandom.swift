/// The simulator's own deterministic random number generator: xoshiro256** seeded through
/// SplitMix64, with Gaussian (Box-Muller), exponential and Bernoulli draws.
///
/// The same seed gives the same sequence on every platform and every run (unlike Swift's
/// `SystemRandomNumberGenerator` or `Hasher`, which are randomly seeded per process), so a
/// scene seeded with the same value produces the same trace.
public struct SimulationRandom: RandomNumberGenerator, Sendable, Hashable {
    private var s0: UInt64
    private var s1: UInt64
    private var s2: UInt64
    private var s3: UInt64
    /// The second value of the last Box-Muller pair, returned by the next ``gaussian()``.
    private var spareGaussian: Double?

    /// A generator whose state is expanded from `seed` with SplitMix64 (any seed is fine, 0
    /// included).
    public init(seed: UInt64) {
        var splitMix = seed
        s0 = Self.splitMix64(&splitMix)
        s1 = Self.splitMix64(&splitMix)
        s2 = Self.splitMix64(&splitMix)
        s3 = Self.splitMix64(&splitMix)
    }

    /// One SplitMix64 step: advances `state` and returns a well-mixed 64-bit value.
    public static func splitMix64(_ state: inout UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A seed derived from `seed` and a label (FNV-1a of the label's UTF-8 bytes, mixed with
    /// SplitMix64), stable across runs and platforms: gives each link or accessory its own stream.
    public static func derivedSeed(_ seed: UInt64, _ label: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in label.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        var state = seed ^ hash
        return splitMix64(&state)
    }

    /// The next 64 random bits (xoshiro256**).
    public mutating func next() -> UInt64 {
        let result = ((s1 &* 5) << 7 | (s1 &* 5) >> 57) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = s3 << 45 | s3 >> 19
        return result
    }

    /// A uniform value in `0 ..< 1` with 53 random bits.
    public mutating func uniform() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// A uniform value in `range`.
    public mutating func uniform(in range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * uniform()
    }

    /// A standard normal value (mean 0, standard deviation 1), by the Box-Muller transform.
    public mutating func gaussian() -> Double {
        if let spare = spareGaussian {
            spareGaussian = nil
            return spare
        }
        let u1 = 1 - uniform()  // (0, 1]: log is finite
        let u2 = uniform()
        let radius = (-2 * SceneMath.log(u1)).squareRoot()
        let angle = 2 * Double.pi * u2
        spareGaussian = radius * SceneMath.sin(angle)
        return radius * SceneMath.cos(angle)
    }

    /// A normal value with the given mean and standard deviation (`sigma` 0 returns `mean`).
    public mutating func gaussian(mean: Double, sigma: Double) -> Double {
        sigma == 0 ? mean : mean + sigma * gaussian()
    }

    /// An exponential value with the given mean (0 returns 0).
    public mutating func exponential(mean: Double) -> Double {
        mean == 0 ? 0 : -mean * SceneMath.log(1 - uniform())
    }

    /// `true` with probability `probability` (clamped to 0 ... 1).
    public mutating func bernoulli(_ probability: Double) -> Bool {
        probability > 0 && uniform() < probability
    }
}
