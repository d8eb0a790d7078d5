import Foundation
import NearbyConfig
import NearbyTestSupport
import Positioning
import Testing

/// `[house]`, `[[house.host]]`, `[[house.room]]` and `--house FILE`.
@Suite struct HouseSettingsTests {
    @Test func parsesHostsRoomsAndOptions() throws {
        let config = try ConfigurationFile.parse(
            """
            [house]
            away_after = 12
            room_margin = 0.3
            room_dwell = 0.5
            tag_height = 1.1
            room_topic = "rooms"
            espresense = true

            [[house.host]]
            name = "hall"
            x = 0.0
            y = 0
            z = 1.2
            heading_deg = 90
            floor = 0

            [[house.host]]
            name = "attic"
            x = 2
            y = 3.5
            floor = 1

            [[house.room]]
            name = "kitchen"
            polygon = [[0, 0], [4, 0], [4, 3], [0, 3]]

            [[house.room]]
            name = "bedroom"
            floor = 1
            polygon = [[0, 0], [4.5, 0], [4.5, 3], [0, 3]]
            """, source: "house.toml")
        let house = config.house
        let plan = try house.plan()
        #expect(plan.hosts.map(\.name) == ["hall", "attic"] && plan.rooms.map(\.name) == ["kitchen", "bedroom"])
        #expect(plan.hosts[0].height == 1.2 && plan.hosts[0].heading == 90 && plan.hosts[0].floor == 0)
        #expect(plan.hosts[1].height == HouseHost.defaultHeight && plan.hosts[1].heading == nil && plan.hosts[1].floor == 1)
        #expect(plan.rooms[1].floor == 1 && plan.rooms[1].polygon.area == 13.5)
        let parameters = house.fusionParameters
        #expect(parameters.awayAfter == 12 && parameters.roomMargin == 0.3 && parameters.roomDwell == 0.5 && parameters.tagHeight == 1.1)
        #expect(house.effectiveRoomTopic == "rooms" && house.espresense == true)
        #expect(config.summary.contains("house: hosts hall, attic; rooms kitchen, bedroom"))
        var off = HouseSettings()
        off.roomTopic = ""
        #expect(off.effectiveRoomTopic == nil && HouseSettings().effectiveRoomTopic == "room_presence")
    }

    @Test func everyMistakeIsNamedWithItsLine() {
        func issues(_ text: String) -> [String] {
            do {
                _ = try ConfigurationFile.parse(text, source: "h.toml")
                return []
            } catch {
                return error.issues.map { "\($0.line): \($0.key): \($0.message)" }
            }
        }
        let missing = issues("[[house.host]]\nname = \"hall\"\nx = 1\n")
        #expect(missing.contains { $0.contains("house.host[1]") && $0.contains("missing key 'y'") }, "\(missing)")
        let typo = issues("[[house.host]]\nname = \"hall\"\nx = 1\ny = 1\nheading = 90\n")
        #expect(typo.contains { $0.hasPrefix("5: house.host[1].heading") && $0.contains("heading_deg") }, "\(typo)")
        let polygon = issues("[[house.room]]\nname = \"k\"\npolygon = [[0, 0], [1, 1]]\n")
        #expect(polygon.contains { $0.contains("house.room[1].polygon") && $0.contains("at least 3 corners") }, "\(polygon)")
        let shape = issues("[[house.room]]\nname = \"k\"\npolygon = [0, 1, 2]\n")
        #expect(shape.contains { $0.contains("[x, y] pairs") }, "\(shape)")
        let overlap = issues("""
            [[house.room]]
            name = "a"
            polygon = [[0, 0], [4, 0], [4, 3], [0, 3]]
            [[house.room]]
            name = "b"
            polygon = [[2, 0], [6, 0], [6, 3], [2, 3]]
            """)
        #expect(overlap.contains { $0.contains("overlap") }, "\(overlap)")
        let duplicate = issues("[[house.host]]\nname = \"a\"\nx = 0\ny = 0\n[[house.host]]\nname = \"a\"\nx = 1\ny = 1\n")
        #expect(duplicate.contains { $0.contains("two hosts are named 'a'") }, "\(duplicate)")
        #expect(issues("[house]\naway_after = 0\n").contains { $0.contains("house.away_after") })
        #expect(issues("[house]\nroom_topic = \"a/#\"\n").contains { $0.contains("house.room_topic") })
    }

    @Test func aHouseFileOfItsOwn() throws {
        let house = try ConfigurationFile.loadHouse(path: PackagePaths.file("data/house/three-rooms.toml").path)
        let plan = try house.plan()
        #expect(plan.hosts.map(\.name) == ["kitchen", "hall", "living"] && plan.rooms.count == 3 && house.awayAfter == 5)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("nearby-house-\(UUID().uuidString).toml").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = FileManager.default.createFile(atPath: path, contents: Data("[zones]\ndwell = 1\n".utf8))
        #expect(throws: ConfigError.self) { _ = try ConfigurationFile.loadHouse(path: path) }
        // The survey's lines read back as the same hosts.
        let lines = HouseSettings.hostLines(plan.hosts)
        let again = try ConfigurationFile.parse(lines, source: "survey").house.plan()
        #expect(again.hosts == plan.hosts)
    }
}
