import Simulation
import Testing

/// Frames and angle conventions: azimuth positive to the right, elevation positive up.
@Suite struct SceneGeometryTests {
    static let observer = ScenePose(position: SceneVector(x: 1, y: 2, z: 1))  // facing north

    static func geometry(_ pose: ScenePose = observer, dx: Double, dy: Double, dz: Double) -> RelativeGeometry {
        RelativeGeometry(from: pose, to: pose.position + SceneVector(x: dx, y: dy, z: dz))
    }

    static func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

    @Test func azimuthSignsForANorthFacingObserver() {
        #expect(Self.close(Self.geometry(dx: 0, dy: 3, dz: 0).azimuth, 0))  // ahead
        #expect(Self.close(Self.geometry(dx: 3, dy: 0, dz: 0).azimuth, 90))  // east = right
        #expect(Self.close(Self.geometry(dx: -3, dy: 0, dz: 0).azimuth, -90))  // west = left
        #expect(Self.close(Self.geometry(dx: 1, dy: 1, dz: 0).azimuth, 45))
        #expect(Self.close(Self.geometry(dx: -1, dy: 1, dz: 0).azimuth, -45))
        #expect(Self.close(Self.geometry(dx: 0, dy: -3, dz: 0).azimuth, -180))  // behind: -180, never +180
        #expect(Self.close(Self.geometry(dx: 1, dy: -1, dz: 0).azimuth, 135))
        #expect(!Self.geometry(dx: 1, dy: -1, dz: 0).isInFront)
    }

    @Test func distancesAndElevation() {
        let above = Self.geometry(dx: 0, dy: 3, dz: 4)
        #expect(Self.close(above.distance, 5))
        #expect(Self.close(above.elevation, 53.130_102_354_155_98, 1e-9))
        let below = Self.geometry(dx: 3, dy: 0, dz: -3)
        #expect(Self.close(below.elevation, -45))
        #expect(Self.close(below.azimuth, 90))
        #expect(Self.close(Self.geometry(dx: 0, dy: 0, dz: 2).elevation, 90))
        #expect(Self.close(Self.geometry(dx: 0, dy: 0, dz: 2).azimuth, 0))
        let same = Self.geometry(dx: 0, dy: 0, dz: 0)
        #expect(same == RelativeGeometry(distance: 0, azimuth: 0, elevation: 0))
    }

    @Test func yawTurnsTheFrameClockwise() {
        let facingEast = ScenePose(position: .zero, yaw: 90)
        #expect(Self.close(Self.geometry(facingEast, dx: 2, dy: 0, dz: 0).azimuth, 0))
        #expect(Self.close(Self.geometry(facingEast, dx: 0, dy: 2, dz: 0).azimuth, -90))  // north is on the left
        #expect(Self.close(Self.geometry(facingEast, dx: 0, dy: -2, dz: 0).azimuth, 90))
        let facingSouthWest = ScenePose(position: .zero, yaw: -135)
        #expect(Self.close(Self.geometry(facingSouthWest, dx: -1, dy: -1, dz: 0).azimuth, 0, 1e-9))
    }

    @Test func pitchAndRollTiltTheFrame() {
        let pitchedUp = ScenePose(position: .zero, pitch: 30)
        let level = Self.geometry(pitchedUp, dx: 0, dy: 5, dz: 0)
        #expect(Self.close(level.elevation, -30, 1e-9))
        #expect(Self.close(level.azimuth, 0, 1e-9))
        // Roll 90° (right side down): the world's right is the device's up, the world's up is its left.
        let rolled = ScenePose(position: .zero, roll: 90)
        #expect(Self.close(Self.geometry(rolled, dx: 3, dy: 0, dz: 0).elevation, 90, 1e-9))
        let up = Self.geometry(rolled, dx: 0, dy: 0, dz: 3)
        #expect(Self.close(up.elevation, 0, 1e-9))
        #expect(Self.close(up.azimuth, -90, 1e-9))
    }

    @Test func poseAxesAreOrthonormalForAnyOrientation() {
        for (yaw, pitch, roll) in [(0.0, 0.0, 0.0), (37.0, -12.0, 5.0), (-170.0, 80.0, -60.0), (90.0, 45.0, 180.0)] {
            let axes = ScenePose(position: .zero, yaw: yaw, pitch: pitch, roll: roll).axes
            for axis in [axes.forward, axes.right, axes.up] {
                #expect(Self.close(axis.length, 1, 1e-12))
            }
            #expect(Self.close(axes.forward.dot(axes.right), 0, 1e-12))
            #expect(Self.close(axes.forward.dot(axes.up), 0, 1e-12))
            #expect(Self.close(axes.right.dot(axes.up), 0, 1e-12))
            // right × forward = up (right-handed).
            let cross = SceneVector(
                x: axes.right.y * axes.forward.z - axes.right.z * axes.forward.y,
                y: axes.right.z * axes.forward.x - axes.right.x * axes.forward.z,
                z: axes.right.x * axes.forward.y - axes.right.y * axes.forward.x)
            #expect(Self.close((cross - axes.up).length, 0, 1e-12))
        }
    }

    @Test func anglesStayInTheirRanges() async {
        var random = SimulationRandom(seed: 3)
        var outOfRange: [String] = []
        for iteration in 0..<5_000 {
            if iteration % 250 == 0 { await Task.yield() }  // leave the 2-core test pool to others
            let pose = ScenePose(
                position: .zero, yaw: random.uniform(in: -720...720), pitch: random.uniform(in: -90...90),
                roll: random.uniform(in: -180...180))
            let target = SceneVector(
                x: random.uniform(in: -9...9), y: random.uniform(in: -9...9), z: random.uniform(in: -9...9))
            let geometry = RelativeGeometry(from: pose, to: target)
            if !(geometry.azimuth >= -180 && geometry.azimuth < 180) || !(geometry.elevation >= -90 && geometry.elevation <= 90)
                || !Self.close(geometry.distance, target.length, 1e-9) {
                outOfRange.append("\(pose) → \(target): \(geometry)")
            }
        }
        #expect(outOfRange.isEmpty, "\(outOfRange.count) out of range, first: \(outOfRange.prefix(3))")
    }
}
