/// The direction to an accessory: smoothed angles and the unit vector they describe.
///
/// The vector uses Apple Nearby Interaction's device frame: x to the right, y up, z toward the
/// user (the accessory straight ahead is (0, 0, −1)):
/// `x = cos(el)·sin(az)`, `y = sin(el)`, `z = −cos(el)·cos(az)`. Without an elevation the vector
/// assumes 0° (the horizontal plane). The vector is computed when asked for, so a pipeline whose
/// user reads only angles pays no trigonometry.
public struct Direction: Sendable, Hashable {
    /// Azimuth in degrees, −180 ..< 180, positive to the right.
    public var azimuth: Double
    /// Elevation in degrees, −90 ... 90, positive up; `nil` if the device reports none.
    public var elevation: Double?
    /// Confidence in the direction, 0 ... 1, from the figure of merit of the sample the azimuth
    /// last came from: FoM / 100 (1 when unknown), halved for NLoS. The angle filters weigh each
    /// angle by the same FoM.
    public var confidence: Double
    /// One standard deviation of the smoothed azimuth in degrees, from the angle filter's own
    /// uncertainty (FoM-weighted measurement noise and the model); `nil` for filters without an
    /// uncertainty model (only `imm` and `kalman` have one).
    public var uncertainty: Double?

    /// The direction for `azimuth` and `elevation` in degrees, with its `confidence` (0 ... 1) and
    /// azimuth `uncertainty` (1 σ, degrees).
    public init(azimuth: Double, elevation: Double?, confidence: Double = 1, uncertainty: Double? = nil) {
        self.azimuth = azimuth
        self.elevation = elevation
        self.confidence = confidence
        self.uncertainty = uncertainty
    }

    /// The unit vector (x right, y up, z toward the user).
    public var vector: (x: Double, y: Double, z: Double) {
        let (sinAz, cosAz) = Angles.sinCos(degrees: azimuth)
        let (sinEl, cosEl) = Angles.sinCos(degrees: elevation ?? 0)
        return (cosEl * sinAz, sinEl, -cosEl * cosAz)
    }

    /// Unit vector, x component (right).
    public var x: Double { vector.x }
    /// Unit vector, y component (up).
    public var y: Double { vector.y }
    /// Unit vector, z component (toward the user; ahead is negative).
    public var z: Double { vector.z }
}
