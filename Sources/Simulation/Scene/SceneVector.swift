/// A point or displacement in the scene's world frame, in metres.
///
/// World frame (right-handed, "east-north-up"): `x` east, `y` north, `z` up. The scene has no
/// fixed origin; scenarios put the host at `x = y = 0`.
public struct SceneVector: Sendable, Hashable, CustomStringConvertible {
    /// East, metres.
    public var x: Double
    /// North, metres.
    public var y: Double
    /// Up, metres.
    public var z: Double

    /// Creates a vector (metres).
    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// The origin.
    public static let zero = SceneVector(x: 0, y: 0, z: 0)

    /// The point at horizontal distance `horizontal` (metres) and compass `bearing` (degrees,
    /// clockwise from north) from `origin`, at height `z`.
    public static func polar(from origin: SceneVector, horizontal: Double, bearing: Double, z: Double) -> SceneVector {
        SceneVector(
            x: origin.x + horizontal * SceneMath.sin(degrees: bearing),
            y: origin.y + horizontal * SceneMath.cos(degrees: bearing),
            z: z)
    }

    /// Sum.
    public static func + (lhs: SceneVector, rhs: SceneVector) -> SceneVector {
        SceneVector(x: lhs.x + rhs.x, y: lhs.y + rhs.y, z: lhs.z + rhs.z)
    }

    /// Difference.
    public static func - (lhs: SceneVector, rhs: SceneVector) -> SceneVector {
        SceneVector(x: lhs.x - rhs.x, y: lhs.y - rhs.y, z: lhs.z - rhs.z)
    }

    /// Scaling.
    public static func * (lhs: SceneVector, rhs: Double) -> SceneVector {
        SceneVector(x: lhs.x * rhs, y: lhs.y * rhs, z: lhs.z * rhs)
    }

    /// Dot product.
    public func dot(_ other: SceneVector) -> Double {
        x * other.x + y * other.y + z * other.z
    }

    /// Length in metres.
    public var length: Double { dot(self).squareRoot() }

    /// Length of the horizontal (x, y) part in metres.
    public var horizontalLength: Double { (x * x + y * y).squareRoot() }

    /// `true` if every component is finite.
    public var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite }

    /// `(x, y, z)`.
    public var description: String { "(\(x), \(y), \(z))" }
}
