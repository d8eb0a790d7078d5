import Foundation
import MQTT
import NearbyTestSupport
import Positioning
import Testing

/// The whole house end to end with the built executable against a real broker: `nearby demo
/// --house` runs three hosts in one scene, each publishing as itself; `nearby watch --house`
/// fuses them; the truth file says where the accessories really were (specs/house.md,
/// "Figures"). And `nearby house survey --simulate`.
@Suite(.serialized) struct HouseCommandTests {
    static let house = PackagePaths.file("data/house/three-rooms.toml").path

    struct TruthRow {
        var time: Double
        var point: PlanePoint?
        var room: String?
    }

    /// `t_s,time,accessory,x_m,y_m,room` by accessory.
    static func truth(_ text: String) -> [String: [TruthRow]] {
        var rows: [String: [TruthRow]] = [:]
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 6, let time = Double(fields[1]) else { continue }
            let point = Double(fields[3]).flatMap { x in Double(fields[4]).map { PlanePoint(x: x, y: $0) } }
            rows[fields[2], default: []].append(TruthRow(time: time, point: point, room: fields[5].isEmpty ? nil : fields[5]))
        }
        return rows
    }

    /// The truth row at or before `time`, and the next one (for interpolation).
    static func at(_ rows: [TruthRow], _ time: Double) -> (TruthRow, TruthRow?)? {
        guard let index = rows.lastIndex(where: { $0.time <= time }) else { return nil }
        return (rows[index], index + 1 < rows.count ? rows[index + 1] : nil)
    }

    @Test func aSimulatedHouseOfThreeHostsAndThreeRoomsMeetsTheFigures() async throws {
        let broker = try await MosquittoBroker()
        let recorder = try MQTTRecorder(
            try mqttConfiguration(broker.url(), id: "ha"), subscribe: ["nearby/house/#", "homeassistant/device/#", "room_presence/#", "nearby/+/status"])
        try await recorder.connected()
        let watch = try ChildProcess(PackagePaths.nearby, ["watch", broker.url(), "--house", Self.house, "--json"])
        defer { watch.terminate() }
        try await watch.waitForOutput("watching mqtt://127.0.0.1:\(broker.port)")
        let truthPath = FileManager.default.temporaryDirectory.appendingPathComponent("nearby-truth-\(UUID().uuidString).csv").path
        defer { try? FileManager.default.removeItem(atPath: truthPath) }
        // Real time (--speed 1): the hosts' times are wall-clock times, as in a real house.
        let demo = try await ChildProcess.run(
            PackagePaths.nearby,
            ["demo", "--house", Self.house, "--mqtt", broker.url(), "--truth", truthPath, "--accessories", "2", "--walk", "60", "--seed", "7"],
            timeout: .seconds(900))
        #expect(demo.status == 0, "\(demo.stderr)")
        #expect(demo.stdout.contains("kitchen: sim-1:") && demo.stdout.contains("living: sim-2:"), "\(demo.stdout)")
        try await watch.waitForOutput(#""accessory":"sim-1","name":"sim-1""#)
        // Both leave; the watcher says not_home.
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline, ["sim-1", "sim-2"].contains(where: { id in !watch.stdout.contains(#""event":"position","accessory":"\#(id)""#) || !Self.positions(watch.stdout, id).contains { $0.presence == .notHome } }) {
            try await Task.sleep(for: .milliseconds(200))
        }
        watch.signal(SIGINT)
        #expect(try await watch.waitForExit() == 0, "\(watch.stderr)")
        let truth = Self.truth(try String(contentsOfFile: truthPath, encoding: .utf8))
        #expect(Set(truth.keys) == ["sim-1", "sim-2"])
        var all = HouseScore()
        for id in ["sim-1", "sim-2"] {
            let rows = try #require(truth[id])
            let leave = try #require(rows.first { $0.room == "not_home" }?.time)
            let samples = Self.positions(watch.stdout, id)
            let score = HouseScore.score(
                samples,
                truthPoint: { time in
                    guard let (row, next) = Self.at(rows, time), let a = row.point else { return nil }
                    guard let next, let b = next.point, next.time > row.time else { return a }
                    return a + (b - a) * ((time - row.time) / (next.time - row.time))
                },
                truthRoom: { time in Self.at(rows, time)?.0.room }, leave: leave)
            print("house figures \(id): \(score)")
            // The figure is the house's (both accessories, below); one accessory's p95 over its
            // ~116 published positions is their 6th worst and moves with which instants the 2 Hz
            // publishing catches in seed 7's NLoS episodes (0.16-0.31 m between runs).
            #expect(score.p95 <= 0.40, "\(id): \(score)")
            #expect(score.roomShare >= 0.97, "\(id): \(score)")
            #expect(score.flaps == 0, "\(id): \(score)")
            #expect(score.crossings >= 4, "\(id): \(score)")
            let delay = try #require(score.awayDelay, "\(id): \(score)")
            #expect(delay >= 0 && delay <= 5 + 1, "\(id): not_home \(delay) s after leaving: \(score)")
            all.errors += score.errors
            all.roomRight += score.roomRight
            all.roomChecked += score.roomChecked
            all.crossings += score.crossings
            all.flaps += score.flaps
        }
        print("house figures, both accessories: \(all)")
        #expect(all.p95 <= 0.30, "both accessories: \(all)")

        // What Home Assistant sees: retained positions, the house's devices, the MQTT Room feed.
        let late = try MQTTRecorder(try mqttConfiguration(broker.url(), id: "late"), subscribe: ["nearby/house/#", "homeassistant/device/#"])
        try await late.wait("the retained positions") { $0.messages.filter { $0.topic.hasSuffix("/position") }.count == 2 }
        let positionMessage = try #require(late.messages(on: "nearby/house/sim-1/position").last)
        let position = try #require(try JSONSerialization.jsonObject(with: Data(positionMessage.payload)) as? [String: Any])
        #expect(position["state"] as? String == "not_home" && position["presence"] as? String == "not_home")
        for key in ["accessory", "name", "time", "x_m", "y_m", "floor", "room", "accuracy_m", "hosts"] { #expect(position.keys.contains(key), "\(key)") }
        let config = try #require(late.messages(on: "homeassistant/device/nearby_house_sim-1/config").last)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(config.payload)) as? [String: Any])
        let components = try #require(object["cmps"] as? [String: [String: Any]])
        #expect(components["room"]?["p"] as? String == "device_tracker" && components["room"]?["source_type"] as? String == "bluetooth_le")
        #expect((object["dev"] as? [String: Any])?["via_device"] as? String == "nearby_house")
        #expect(late.messages(on: "nearby/house/status").last?.text == "offline", "the watcher's will or clean stop")
        let rooms = recorder.messages.filter { $0.topic.hasPrefix("room_presence/") }
        #expect(Set(rooms.map(\.topic)).isSubset(of: ["room_presence/kitchen", "room_presence/hall", "room_presence/living"]) && rooms.count > 10)
        let roomMessage = try #require(rooms.first)
        let room = try #require(try JSONSerialization.jsonObject(with: Data(roomMessage.payload)) as? [String: Any])
        #expect(room["id"] as? String != nil && room["name"] as? String != nil && room["distance"] as? Double != nil)
        // Every host announced its room as the suggested area of its device.
        let hall = try #require(recorder.messages(on: "homeassistant/device/nearby_hall/config").last)
        #expect(((try JSONSerialization.jsonObject(with: Data(hall.payload)) as? [String: Any])?["dev"] as? [String: Any])?["sa"] as? String == "hall")
        for client in [recorder, late] { await client.client.stop() }
    }

    /// The `"event":"position"` lines of `accessory` in `nearby watch --json`'s output.
    static func positions(_ output: String, _ accessory: String) -> [FusedSample] {
        output.split(separator: "\n").compactMap { line -> FusedSample? in
            guard line.contains(#""event":"position""#), line.contains(#""accessory":"\#(accessory)""#),
                let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], let time = object["time"] as? Double
            else { return nil }
            let point = (object["x_m"] as? Double).flatMap { x in (object["y_m"] as? Double).map { PlanePoint(x: x, y: $0) } }
            return FusedSample(time: time, point: point, room: object["room"] as? String, presence: object["presence"] as? String == "not_home" ? .notHome : .home)
        }
    }

    @Test func theSurveyRecoversTheSimulatedHosts() async throws {
        let run = try await ChildProcess.run(PackagePaths.nearby, ["house", "survey", "--house", Self.house, "--simulate"], timeout: .seconds(600))
        #expect(run.status == 0, "\(run.stderr)")
        // The [[house.host]] lines: positions within 0.2 m of the file's, headings near.
        let file = try String(contentsOfFile: Self.house, encoding: .utf8)
        func hosts(_ text: String) -> [String: (x: Double, y: Double, heading: Double?)] {
            var result: [String: (Double, Double, Double?)] = [:]
            for block in text.components(separatedBy: "[[house.host]]").dropFirst() {
                var values: [String: String] = [:]
                for line in block.split(separator: "\n") {
                    let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                    if parts.count == 2 { values[parts[0]] = parts[1].split(separator: "#").first.map { $0.trimmingCharacters(in: .whitespaces) } }
                    if line.hasPrefix("[[house.room]]") { break }
                }
                guard let name = values["name"]?.trimmingCharacters(in: CharacterSet(charactersIn: "\"")), let x = values["x"].flatMap(Double.init),
                    let y = values["y"].flatMap(Double.init)
                else { continue }
                result[name] = (x, y, values["heading_deg"].flatMap(Double.init))
            }
            return result
        }
        let expected = hosts(file.components(separatedBy: "[[house.room]]")[0])
        let found = hosts(run.stdout)
        #expect(Set(found.keys) == ["kitchen", "hall", "living"], "\(run.stdout)")
        for (name, truth) in expected {
            let host = try #require(found[name])
            let error = PlanePoint(x: host.x, y: host.y).distance(to: PlanePoint(x: truth.x, y: truth.y))
            print("survey \(name): \(error) m from the file's position")
            #expect(error <= 0.2, "\(name): \(host) vs \(truth)\n\(run.stderr)")
            if let heading = host.heading, let expectedHeading = truth.heading {
                let difference = abs((heading - expectedHeading + 540).truncatingRemainder(dividingBy: 360) - 180)
                #expect(difference <= 10, "\(name) heading \(heading) vs \(expectedHeading)")
            }
        }
        #expect(run.stderr.contains("range residuals"), "\(run.stderr)")
    }
}
