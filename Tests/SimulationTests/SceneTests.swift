import Ranging
import Simulation
import Testing

/// The scene: devices, geometry between them, measurements, determinism, conversions.
@Suite struct SceneTests {
    @Test func geometryBetweenPlacedDevices() throws {
        var scene = try Scene(noise: .ideal)
        scene.place(.host, on: .stationary(at: SceneVector(x: 0, y: 0, z: 1)))
        scene.place("tag", on: .stationary(at: SceneVector(x: 3, y: 4, z: 1)))
        let geometry = try scene.geometry(from: .host, to: "tag", at: 0)
        #expect(abs(geometry.distance - 5) < 1e-12)
        #expect(abs(geometry.azimuth - 36.869_897_645_844_02) < 1e-9)
        #expect(geometry.elevation == 0)
        // Seen from the tag (facing north too), the host is behind on the left.
        let back = try scene.geometry(from: "tag", to: .host, at: 0)
        #expect(abs(back.azimuth - -143.130_102_354_155_98) < 1e-9)
        let measurement = try scene.measure(from: .host, to: "tag", at: 0)
        #expect(measurement.distance == 5)
        #expect(measurement.truth == geometry)
        #expect(scene.devices == [.host, "tag"])
    }

    @Test func unknownDevicesAreNamed() throws {
        var scene = try Scene()
        scene.place(.host, on: .stationary(at: .zero))
        let error = #expect(throws: SceneError.self) { try scene.measure(from: .host, to: "ghost", at: 0) }
        #expect(error?.description == "no device \"ghost\" in the scene; it holds: host")
        scene.remove(.host)
        let empty = #expect(throws: SceneError.self) { try scene.pose(of: .host, at: 0) }
        #expect(empty?.description == "no device \"host\" in the scene; it holds: no devices (place them first)")
    }

    @Test func sameSeedSameTraceDifferentSeedDifferentTrace() throws {
        func trace(seed: UInt64) throws -> [SimulatedMeasurement] {
            var scene = try Scenario.demo.makeScene(accessories: 2, seed: seed)
            return try scene.trace(from: .host, to: .accessory(1), interval: 0.2, duration: 70)
        }
        let first = try trace(seed: 42)
        #expect(first.count == 350)
        #expect(try trace(seed: 42) == first)
        #expect(try trace(seed: 43) != first)
        // The truth does not depend on the seed, only the noise does.
        #expect(try trace(seed: 43).map(\.truth) == first.map(\.truth))
    }

    @Test func linksAreIndependentAndReciprocal() throws {
        var scene = try Scenario.stand.makeScene(accessories: 2, seed: 5)
        let a = try scene.trace(from: .host, to: .accessory(0), interval: 0.2, duration: 20)
        let b = try scene.trace(from: .host, to: .accessory(1), interval: 0.2, duration: 20)
        #expect(a.map(\.distance) != b.map(\.distance))
        // Measuring from the accessory's side uses the same link (same NLoS state, same stream).
        var forward = try Scenario.stand.makeScene(seed: 5)
        var backward = try Scenario.stand.makeScene(seed: 5)
        let f = try forward.trace(from: .host, to: .accessory(0), interval: 0.2, duration: 20)
        let r = try backward.trace(from: .accessory(0), to: .host, interval: 0.2, duration: 20)
        #expect(f.map(\.isNonLineOfSightTruth) == r.map(\.isNonLineOfSightTruth))
        #expect(f.map(\.status) == r.map(\.status))
    }

    @Test func rangeSampleCarriesTheReportedValues() throws {
        var scene = try Scenario.walkIn.makeScene(noise: .default, seed: 8)
        let rounds = try scene.trace(from: .host, to: .accessory(0), interval: 0.2, duration: 12)
        for round in rounds {
            let sample = round.rangeSample(timestamp: 100 + round.time)
            #expect(sample.timestamp == 100 + round.time)
            #expect(sample.distance == round.distance)
            #expect(sample.azimuth == round.azimuth)
            #expect(sample.elevation == round.elevation)
            #expect(sample.figureOfMerit == round.azimuthFigureOfMerit)
            #expect(sample.isNonLineOfSight == round.reportedNonLineOfSight)
            #expect(sample.rssi == round.rssi)
            #expect(sample.status == round.status)
            #expect(sample.isValid == round.isValid)
        }
    }

    @Test func uciFieldsEncodeLikeTheReferenceNotification() {
        // The reference's SESSION_INFO_NTF vector: 150 cm, az -30.0° (00 f1), el +10.5° (40 05),
        // FoM 100, RSSI 0x90 (-72 dBm).
        let fields = UCIMeasurementFields(
            status: 0, nonLineOfSight: 0, distanceCentimetres: 150, azimuthDegrees: -30, azimuthFigureOfMerit: 100,
            elevationDegrees: 10.5, elevationFigureOfMerit: 100, rssiDBm: -72)
        #expect(UInt16(bitPattern: fields.azimuthQ9_7) == 0xF100)
        #expect(UInt16(bitPattern: fields.elevationQ9_7) == 0x0540)
        #expect(fields.rssiQ7_1 == 0x90)
        // Extremes stay in range.
        let extreme = UCIMeasurementFields(
            status: 0, nonLineOfSight: 1, distanceCentimetres: 0, azimuthDegrees: -180, azimuthFigureOfMerit: 0,
            elevationDegrees: 90, elevationFigureOfMerit: 0, rssiDBm: -127.5)
        #expect(extreme.azimuthQ9_7 == -23040)
        #expect(extreme.elevationQ9_7 == 11520)
        #expect(extreme.rssiQ7_1 == 255)
    }

    @Test func measurementsBecomeUCIFieldsLosslessly() throws {
        var scene = try Scenario.demo.makeScene(seed: 3)
        for round in try scene.trace(from: .host, to: .accessory(0), interval: 0.2, duration: 60) {
            let fields = round.uciFields
            #expect(fields.status == round.status)
            guard round.isValid, let distance = round.distance else {
                #expect(fields.distanceCentimetres == 0 && fields.azimuthQ9_7 == 0 && fields.rssiQ7_1 == 0)
                continue
            }
            // Decoding as a host would gives back exactly the reported values.
            #expect(Double(fields.distanceCentimetres) / 100 == abs(distance))
            #expect(Double(fields.azimuthQ9_7) / 128 == round.azimuth)
            #expect(Double(fields.elevationQ9_7) / 128 == round.elevation)
            #expect(-Double(fields.rssiQ7_1) / 2 == round.rssi)
            #expect(fields.nonLineOfSight == (round.reportedNonLineOfSight == true ? 1 : 0))
        }
    }

    @Test func traceParametersAreChecked() throws {
        var scene = try Scenario.stand.makeScene()
        #expect(throws: SceneError.self) { try scene.trace(from: .host, to: .accessory(0), interval: 0, duration: 1) }
        #expect(throws: SceneError.self) {
            try scene.trace(from: .host, to: .accessory(0), interval: 0.1, duration: -1)
        }
        #expect(try scene.trace(from: .host, to: .accessory(0), interval: 0.1, duration: 0).isEmpty)
        // Rounds at k · interval < duration, robust to floating-point division.
        #expect(
            try scene.trace(from: .host, to: .accessory(0), interval: 0.1, duration: 0.3).map(\.time) == [0, 0.1, 0.2])
        #expect(try scene.trace(from: .host, to: .accessory(0), interval: 0.1, duration: 1).count == 10)
        #expect(
            try scene.trace(from: .host, to: .accessory(0), interval: 0.2, duration: 70, start: 5).last?.time == 5 + 349
                * 0.2)
    }
}
