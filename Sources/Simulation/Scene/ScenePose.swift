/// Where a device is and which way it faces.
///
/// Orientation is given as a compass heading and two tilts, applied in that order (yaw, then
/// pitch about the device's right axis, then roll about its forward axis):
///
/// - `yaw`: heading of the device's **forward** axis in degrees, clockwise from north seen from
///   above (0 = facing +y, 90 = facing +x).
/// - `pitch`: degrees, positive = forward axis tilted up.
/// - `roll`: degrees, positive = right side down.
///
/// The device frame: **forward** is the antenna array's boresight, **right** and **up** complete
/// it. Angles of a peer are measured in this frame (see ``RelativeGeometry``).
public struct ScenePose: Sendable, Hashable {
    /// Position in the world frame, metres.
    public var position: SceneVector
    /// Heading, degrees clockwise from north.
    public var yaw: Double
    /// Tilt of the forward axis, degrees, positive up.
    public var pitch: Double
    /// Tilt about the forward axis, degrees, positive right side down.
    public var roll: Double

    /// Creates a pose (metres, degrees).
    public init(position: SceneVector, yaw: Double = 0, pitch: Double = 0, roll: Double = 0) {
        self.position = position
        self.yaw = yaw
        self.pitch = pitch
        self.roll = roll
    }

    /// The device's forward, right and up unit axes in the world frame.
    public var axes: (forward: SceneVector, right: SceneVector, up: SceneVector) {
        let (sinYaw, cosYaw) = (SceneMath.sin(degrees: yaw), SceneMath.cos(degrees: yaw))
        let (sinPitch, cosPitch) = (SceneMath.sin(degrees: pitch), SceneMath.cos(degrees: pitch))
        let (sinRoll, cosRoll) = (SceneMath.sin(degrees: roll), SceneMath.cos(degrees: roll))
        // Yaw, then pitch: forward tilts toward up; right stays horizontal.
        let forward = SceneVector(x: sinYaw * cosPitch, y: cosYaw * cosPitch, z: sinPitch)
        let right = SceneVector(x: cosYaw, y: -sinYaw, z: 0)
        let up = SceneVector(x: -sinYaw * sinPitch, y: -cosYaw * sinPitch, z: cosPitch)
        // Roll about forward: positive turns right toward down.
        return (forward, right * cosRoll - up * sinRoll, up * cosRoll + right * sinRoll)
    }
}
