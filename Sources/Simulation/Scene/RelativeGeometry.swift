/// The true distance and direction of a target as seen from an observer's pose, with the
/// conventions of `Ranging.RangeSample`.
///
/// With `f`, `r`, `u` the target's offset along the observer's forward, right and up axes
/// (``ScenePose/axes``):
/// - ``distance`` = `sqrt(f² + r² + u²)`, metres;
/// - ``azimuth`` = `atan2(r, f)`, degrees in -180 ..< 180, **positive to the right**, 0 straight
///   ahead, ±180 straight behind;
/// - ``elevation`` = `atan2(u, sqrt(f² + r²))`, degrees in -90 ... 90, **positive up**.
///
/// A target at the observer's position has distance 0 and both angles 0.
public struct RelativeGeometry: Sendable, Hashable {
    /// Distance, metres.
    public var distance: Double
    /// Azimuth, degrees, -180 ..< 180, positive to the right.
    public var azimuth: Double
    /// Elevation, degrees, -90 ... 90, positive up.
    public var elevation: Double

    /// Creates a geometry (metres, degrees).
    public init(distance: Double, azimuth: Double, elevation: Double) {
        self.distance = distance
        self.azimuth = azimuth
        self.elevation = elevation
    }

    /// The geometry of `target` seen from `observer`.
    public init(from observer: ScenePose, to target: SceneVector) {
        let offset = target - observer.position
        let axes = observer.axes
        let forward = offset.dot(axes.forward)
        let right = offset.dot(axes.right)
        let up = offset.dot(axes.up)
        let horizontal = (forward * forward + right * right).squareRoot()
        distance = offset.length
        azimuth = horizontal == 0 ? 0 : SceneMath.wrappedDegrees(SceneMath.degrees(SceneMath.atan2(right, forward)))
        elevation = distance == 0 ? 0 : SceneMath.degrees(SceneMath.atan2(up, horizontal))
    }

    /// `true` when the target is in the observer's front hemisphere (|azimuth| ≤ 90°).
    public var isInFront: Bool { abs(azimuth) <= 90 }
}
