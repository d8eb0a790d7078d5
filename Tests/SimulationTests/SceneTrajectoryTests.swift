import Simulation
import Testing

/// Trajectories: interpolation, holding, orientation, validation.
@Suite struct SceneTrajectoryTests {
    static func makePath() throws -> Trajectory {
        try Trajectory(
            keyframes: [
                .init(time: 1, position: SceneVector(x: 0, y: 0, z: 1)),
                .init(time: 3, position: SceneVector(x: 4, y: 0, z: 1)),  // east at 2 m/s
                .init(time: 5, position: SceneVector(x: 4, y: 0, z: 1)),  // stand
                .init(time: 6, position: SceneVector(x: 4, y: 3, z: 1)),  // north
            ], orientation: .facingTravel(initialYaw: 200))
    }

    @Test func positionsInterpolateAndHold() throws {
        let path = try Self.makePath()
        #expect(path.position(at: -10) == SceneVector(x: 0, y: 0, z: 1))
        #expect(path.position(at: 1) == SceneVector(x: 0, y: 0, z: 1))
        #expect(path.position(at: 2) == SceneVector(x: 2, y: 0, z: 1))
        #expect(path.position(at: 4) == SceneVector(x: 4, y: 0, z: 1))
        #expect(path.position(at: 5.5) == SceneVector(x: 4, y: 1.5, z: 1))
        #expect(path.position(at: 60) == SceneVector(x: 4, y: 3, z: 1))
        #expect(path.endTime == 6)
    }

    @Test func facingTravelFollowsTheLastMove() throws {
        let path = try Self.makePath()
        #expect(path.pose(at: 0).yaw == 200)  // before moving
        #expect(abs(path.pose(at: 2).yaw - 90) < 1e-9)  // walking east
        #expect(abs(path.pose(at: 4).yaw - 90) < 1e-9)  // standing keeps the heading
        #expect(abs(path.pose(at: 5.5).yaw) < 1e-9)  // walking north
        #expect(abs(path.pose(at: 99).yaw) < 1e-9)
    }

    @Test func fixedAndFacingOrientations() throws {
        let fixed = Trajectory.stationary(at: SceneVector(x: 1, y: 1, z: 1), yaw: 10, pitch: 20, roll: 30)
        #expect(fixed.pose(at: 123) == ScenePose(position: SceneVector(x: 1, y: 1, z: 1), yaw: 10, pitch: 20, roll: 30))
        let facing = try Trajectory(
            keyframes: [.init(time: 0, position: SceneVector(x: 3, y: 0, z: 0))], orientation: .facing(.zero))
        #expect(abs(facing.pose(at: 0).yaw - -90) < 1e-9)  // the origin is west of it
    }

    @Test func invalidKeyframesAreRejected() {
        let empty = #expect(throws: SceneError.self) { try Trajectory(keyframes: []) }
        #expect(empty?.description == "trajectory keyframe count 0 is out of range, expected at least 1")
        let backwards = #expect(throws: SceneError.self) {
            try Trajectory(keyframes: [.init(time: 2, position: .zero), .init(time: 2, position: .zero)])
        }
        #expect(
            backwards?.description
                == "trajectory keyframe 1 time 2 is out of range, expected greater than keyframe 0 time 2.0")
        #expect(throws: SceneError.self) {
            try Trajectory(keyframes: [.init(time: .nan, position: .zero)])
        }
        #expect(throws: SceneError.self) {
            try Trajectory(keyframes: [.init(time: 0, position: SceneVector(x: .infinity, y: 0, z: 0))])
        }
    }
}
