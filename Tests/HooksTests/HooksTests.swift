import Foundation
import Hooks
import Ranging
import Testing

/// Hook definitions, events and their environment (no processes).
@Suite struct HookDefinitionTests {
    @Test func validationNamesTheField() throws {
        #expect(throws: HookDefinitionError(field: "run", "the command is empty; give the program and its arguments, e.g. [\"/usr/bin/logger\", \"nearby\"]")) {
            try HookDefinition(on: .enter, zone: "near", run: [])
        }
        #expect(throws: HookDefinitionError(field: "run", "the program name (first element) is empty")) {
            try HookDefinition(on: .enter, run: [""])
        }
        let lost = #expect(throws: HookDefinitionError.self) { try HookDefinition(on: .lost, zone: "near", run: ["/bin/true"]) }
        #expect(lost?.field == "zone")
        #expect(lost?.description == "zone: a 'lost' hook has no zone (only enter and exit have one); remove zone = \"near\"")
        #expect((#expect(throws: HookDefinitionError.self) { try HookDefinition(on: .enter, run: ["/bin/true"], timeout: 0) })?.field == "timeout")
        #expect((#expect(throws: HookDefinitionError.self) { try HookDefinition(on: .enter, run: ["/bin/true"], timeout: .nan) })?.field == "timeout")
        #expect((#expect(throws: HookDefinitionError.self) { try HookDefinition(on: .enter, run: ["/bin/true"], cooldown: -1) })?.field == "cooldown")
        #expect((#expect(throws: HookDefinitionError.self) { try HookDefinition(on: .enter, accessory: "", run: ["/bin/true"]) })?.field == "accessory")
        #expect((#expect(throws: HookDefinitionError.self) { try HookDefinition(on: .enter, run: ["/bin/echo", "a\0b"]) })?.field == "run")
    }

    @Test func defaultsAndNames() throws {
        let hook = try HookDefinition(on: .enter, zone: "near", accessory: "*", run: ["/bin/true"])
        #expect(hook.zone == "near")
        #expect(hook.accessory == nil)
        #expect(hook.timeout == 10)
        #expect(hook.cooldown == 0)
        #expect(hook.name == "enter near")
        #expect(try HookDefinition(on: .exit, zone: "*", accessory: "tag", run: ["/bin/true"]).name == "exit of tag")
        #expect(try HookDefinition(name: "door", on: .found, run: ["/bin/true"]).name == "door")
    }

    @Test func matchingByKindZoneAndAccessory() throws {
        let enterNear = try HookDefinition(on: .enter, zone: "near", run: ["/bin/true"])
        let exitAny = try HookDefinition(on: .exit, run: ["/bin/true"])
        let tagOnly = try HookDefinition(on: .enter, accessory: "tag", run: ["/bin/true"])
        let byID = try HookDefinition(on: .lost, accessory: "F0:12:34:56:78:9A", run: ["/bin/true"])
        #expect(enterNear.matches(.test(.enter, zone: "near")))
        #expect(!enterNear.matches(.test(.enter, zone: "mid")))
        #expect(!enterNear.matches(.test(.exit, zone: "near")))
        #expect(exitAny.matches(.test(.exit, zone: "far")))
        #expect(!exitAny.matches(.test(.enter, zone: "far")))
        #expect(tagOnly.matches(.test(.enter, zone: "mid", accessory: "tag")))
        #expect(!tagOnly.matches(.test(.enter, zone: "mid", accessory: "keys")))
        #expect(byID.matches(.test(.lost, accessory: "keys")))
        #expect(!byID.matches(.test(.lost, accessory: "keys", id: "00:00:00:00:00:01")))
    }

    @Test func zoneNamesAreCheckedAgainstTheMap() throws {
        let hook = try HookDefinition(on: .enter, zone: "nera", run: ["/bin/true"])
        let error = #expect(throws: HookDefinitionError.self) { try hook.validate(zoneNames: ["near", "mid", "far"]) }
        #expect(error?.description == "zone: 'nera' is not a zone; the zones are near, mid, far (or \"*\" for any)")
        try HookDefinition(on: .enter, zone: "mid", run: ["/bin/true"]).validate(zoneNames: ["near", "mid", "far"])
    }

    @Test func environmentHasExactlyTheSevenVariables() {
        let event = HookEvent.test(.enter, zone: "near", previous: "mid", distance: 1.2346)
        let environment = event.environment
        #expect(environment.map(\.name) == HookEvent.environmentNames)
        #expect(Dictionary(uniqueKeysWithValues: environment.map { ($0.name, $0.value) }) == [
            "NEARBY_EVENT": "enter", "NEARBY_ZONE": "near", "NEARBY_PREVIOUS_ZONE": "mid", "NEARBY_ACCESSORY": "tag",
            "NEARBY_ACCESSORY_ID": "F0:12:34:56:78:9A", "NEARBY_DISTANCE_M": "1.235",
            "NEARBY_TIMESTAMP": "2025-01-31T12:34:56.789Z",
        ])
        let lost = HookEvent.test(.lost, previous: "far", distance: nil, timestamp: 0)
        let values = Dictionary(uniqueKeysWithValues: lost.environment.map { ($0.name, $0.value) })
        #expect(values["NEARBY_ZONE"] == "")
        #expect(values["NEARBY_PREVIOUS_ZONE"] == "far")
        #expect(values["NEARBY_DISTANCE_M"] == "")
        #expect(values["NEARBY_TIMESTAMP"] == "1970-01-01T00:00:00.000Z")
    }

    @Test func numberFormats() {
        #expect(HookEvent.formatDistance(0) == "0.000")
        #expect(HookEvent.formatDistance(3) == "3.000")
        #expect(HookEvent.formatDistance(0.0504) == "0.050")
        #expect(HookEvent.formatDistance(-0.0004) == "0.000")
        #expect(HookEvent.formatDistance(-1.5) == "-1.500")
        #expect(HookEvent.formatDistance(.nan) == "")
        #expect(HookEvent.formatTimestamp(951_782_400.5) == "2000-02-29T00:00:00.500Z")
        #expect(HookEvent.formatTimestamp(4_102_444_799.999) == "2099-12-31T23:59:59.999Z")
        #expect(HookEvent.formatTimestamp(-0.001) == "1969-12-31T23:59:59.999Z")
    }
}

/// Ranging events -> hook events.
@Suite struct HookEventMappingTests {
    static func zone(_ index: Int) -> ZoneRef { ZoneRef(index: index, name: ZoneMap.standard.zones[index].name) }

    @Test func zoneNamesAndPreviousZonesThroughATransitionSequence() {
        let sequence: [RangingEvent] = [
            .found(at: 0), .zoneChanged(from: nil, to: Self.zone(2), at: 0), .zoneChanged(from: Self.zone(2), to: Self.zone(1), at: 3),
            .zoneChanged(from: Self.zone(1), to: Self.zone(0), at: 5), .lost(at: 9, zone: Self.zone(0)),
            .zoneChanged(from: Self.zone(0), to: nil, at: 9), .found(at: 12), .zoneChanged(from: nil, to: Self.zone(1), at: 12),
        ]
        let events = sequence.flatMap {
            HookEvent.events(for: $0, accessoryName: "tag", accessoryID: "id-1", distance: 2.5, timestamp: 100)
        }
        #expect(events.map(\.kind) == [.found, .enter, .exit, .enter, .exit, .enter, .lost, .exit, .found, .enter])
        #expect(events.map(\.zone) == [nil, "far", "far", "mid", "mid", "near", nil, "near", nil, "mid"])
        #expect(events.map(\.previousZone) == [nil, nil, "far", "far", "mid", "mid", "near", "near", nil, nil])
        #expect(events.allSatisfy { $0.accessoryName == "tag" && $0.accessoryID == "id-1" && $0.distance == 2.5 && $0.timestamp == 100 })
    }

    @Test func eventsFromThePipelineOnABundledTrace() throws {
        // walk_4m_1m.csv: far -> mid -> near -> mid -> far -> mid -> near -> mid -> far (8 truth transitions).
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("data/synthetic/walk_4m_1m.csv")
        let text = try String(contentsOf: url, encoding: .utf8)
        var parser = TraceParser(source: url.path)
        var pipeline = RangingPipeline(filter: .default, zones: .standard)
        var hookEvents: [HookEvent] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard let record = try parser.parse(line: line, number: number + 1) else { continue }
            let update = pipeline.process(record.sample)
            for event in update.events {
                hookEvents += HookEvent.events(
                    for: event, accessoryName: "walker", accessoryID: "w", distance: update.distance, timestamp: event.timestamp)
            }
        }
        let entered = hookEvents.filter { $0.kind == .enter }
        #expect(entered.map(\.zone) == ["far", "mid", "near", "mid", "far", "mid", "near", "mid", "far"])
        #expect(entered.map(\.previousZone) == [nil, "far", "mid", "near", "mid", "far", "mid", "near", "mid"])
        #expect(hookEvents.first?.kind == .found)
        // Entering near happens below 1.4 m (1.5 m boundary, 0.2 m hysteresis).
        for event in entered where event.zone == "near" { #expect((event.distance ?? 9) < 1.4) }
    }
}
