import Simulation
import Testing

/// The shape of each scenario: true distances at chosen times, bounds, determinism, catalogue.
@Suite struct SceneScenarioTests {
    static func distance(_ scenario: Scenario, at time: Double, accessory: Int = 0, seed: UInt64 = 0) -> Double {
        RelativeGeometry(
            from: scenario.hostPose, to: scenario.trajectory(forAccessory: accessory, seed: seed).position(at: time)
        )
        .distance
    }

    @Test func walkInGoesFrom8mTo0_5mAtWalkingSpeed() {
        let scenario = Scenario.walkIn
        #expect(abs(Self.distance(scenario, at: 0) - 8) < 1e-9)
        #expect(abs(Self.distance(scenario, at: 2) - 8) < 1e-9)  // stands 2 s
        #expect(abs(Self.distance(scenario, at: 5.75) - 4.25) < 0.02)  // half way after 3.75 s at 1 m/s
        #expect(abs(Self.distance(scenario, at: 9.5) - 0.5) < 1e-9)
        #expect(abs(Self.distance(scenario, at: 100) - 0.5) < 1e-9)  // then stands
        #expect(scenario.duration(forAccessory: 0) == 12.5)
        // Monotonic approach at about 1 m/s.
        var previous = Self.distance(scenario, at: 2)
        for step in 1...75 {
            let time = 2 + Double(step) * 0.1
            let now = Self.distance(scenario, at: time)
            #expect(now < previous)
            #expect(previous - now < 0.105)
            previous = now
        }
        // Straight ahead, facing the host while walking.
        let geometry = RelativeGeometry(
            from: scenario.hostPose, to: scenario.trajectory(forAccessory: 0).position(at: 5))
        #expect(abs(geometry.azimuth) < 1e-9)
        #expect(geometry.elevation > 0)  // carried above the desk
        #expect(abs(scenario.trajectory(forAccessory: 0).pose(at: 5).yaw - 180) < 1e-9)
    }

    @Test func walkOutMirrorsWalkIn() {
        let scenario = Scenario.walkOut
        #expect(abs(Self.distance(scenario, at: 1) - 0.5) < 1e-9)
        #expect(abs(Self.distance(scenario, at: 5.75) - 4.25) < 0.02)
        #expect(abs(Self.distance(scenario, at: 9.5) - 8) < 1e-9)
        #expect(abs(Self.distance(scenario, at: 30) - 8) < 1e-9)
    }

    @Test func standKeepsItsDistance() throws {
        let scenario = try Scenario.stand(distance: 3.5)
        for time in [0.0, 7, 1000] {
            #expect(abs(Self.distance(scenario, at: time) - 3.5) < 1e-9)
        }
        #expect(abs(Self.distance(.stand, at: 4) - 2) < 1e-9)
    }

    @Test func demoPassesThroughItsWaypoints() {
        for waypoint in Scenario.demoWaypoints {
            #expect(abs(Self.distance(.demo, at: waypoint.time) - waypoint.distance) < 1e-9, "t = \(waypoint.time)")
            let geometry = RelativeGeometry(
                from: Scenario.demo.hostPose, to: Scenario.demo.trajectory(forAccessory: 0).position(at: waypoint.time))
            #expect(abs(geometry.azimuth - waypoint.bearing) < 2, "azimuth at t = \(waypoint.time)")
        }
        #expect(Scenario.demo.duration(forAccessory: 0) == 60)
        // Before moving, the accessory faces the host (it starts at bearing +30°).
        #expect(abs(Scenario.demo.trajectory(forAccessory: 0).pose(at: 0).yaw - 210) < 1e-9)
    }

    @Test func accessoriesAreSpreadAndStaggered() throws {
        #expect([0, 1, 2, 3, 4].map { Scenario.bearingOffset(forAccessory: $0) } == [0, 35, -35, 70, -70])
        // Accessory 1 starts the demo 5 s later, turned 35° to the right.
        #expect(abs(Self.distance(.demo, at: 9, accessory: 0) - 1) < 1e-9)
        #expect(abs(Self.distance(.demo, at: 14, accessory: 1) - 1) < 1e-9)
        let scenario = Scenario.demo
        let geometry = RelativeGeometry(
            from: scenario.hostPose, to: scenario.trajectory(forAccessory: 1).position(at: 0))
        #expect(abs(geometry.azimuth - 65) < 1)
        #expect(scenario.duration(accessories: 3) == 70)
        let scene = try scenario.makeScene(accessories: 3, seed: 1)
        #expect(scene.devices == [.accessory(0), .accessory(1), .accessory(2), .host])
    }

    @Test func randomWalkStaysInItsAnnulusAtWalkingSpeed() throws {
        let walk = try RandomWalk(minimumRadius: 0.5, maximumRadius: 6, duration: 120)
        let trajectory = walk.trajectory(seed: 99)
        #expect(trajectory.endTime >= 120)
        var previous = trajectory.position(at: 0)
        var time = 0.0
        var radii: [Double] = []
        while time <= trajectory.endTime {
            let position = trajectory.position(at: time)
            let radius = position.horizontalLength
            radii.append(radius)
            #expect(radius >= 0.5 - 1e-9 && radius <= 6 + 1e-9, "radius \(radius) at \(time) s")
            #expect((position - previous).length <= 1.3 * 0.05 + 1e-9, "speed at \(time) s")
            #expect(position.z == Scenario.accessoryHeight)
            previous = position
            time += 0.05
        }
        // It really wanders: near and far both visited.
        #expect((radii.min() ?? 0) < 2)
        #expect((radii.max() ?? 0) > 4.5)
    }

    @Test func randomWalkIsAPureFunctionOfItsSeed() {
        let scenario = Scenario.randomWalk
        let a = scenario.trajectory(forAccessory: 0, seed: 5)
        #expect(a == scenario.trajectory(forAccessory: 0, seed: 5))
        #expect(a != scenario.trajectory(forAccessory: 0, seed: 6))
        #expect(a != scenario.trajectory(forAccessory: 1, seed: 5))
        #expect(a.position(at: 37.3) == scenario.trajectory(forAccessory: 0, seed: 5).position(at: 37.3))
    }

    @Test func catalogueAndNames() throws {
        #expect(Scenario.names == ["demo", "walk-in", "stand", "walk-out", "random-walk"])
        for scenario in Scenario.catalogue {
            #expect(!scenario.summary.isEmpty)
            #expect(try Scenario.named(scenario.name) == scenario)
        }
        #expect(try Scenario.named("Walk-In") == .walkIn)
        let error = #expect(throws: SceneError.self) { try Scenario.named("moonwalk") }
        #expect(
            error?.description
                == "unknown scenario \"moonwalk\"; available: demo, walk-in, stand, walk-out, random-walk")
    }

    @Test func parametersAreValidated() {
        #expect(throws: SceneError.self) { try Scenario.walkIn(from: 2, to: 3) }
        #expect(throws: SceneError.self) { try Scenario.walkIn(from: 8, to: 0.1) }
        #expect(throws: SceneError.self) { try Scenario.walkOut(from: 1, to: 5, speed: 10) }
        let stand = #expect(throws: SceneError.self) { try Scenario.stand(distance: 0) }
        #expect(stand?.description == "stand distance 0 is out of range, expected 0.3 ... 100 m")
        #expect(throws: SceneError.self) { try RandomWalk(minimumRadius: 3, maximumRadius: 2) }
        #expect(throws: SceneError.self) { try RandomWalk(speeds: 0...1) }
        #expect(throws: SceneError.self) { try Scenario.demo.makeScene(accessories: 0) }
        #expect(throws: SceneError.self) { try Scenario.demo.makeScene(accessories: 17) }
    }
}
