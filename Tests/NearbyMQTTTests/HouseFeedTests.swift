import Foundation
import MQTT
import NIProtocol
import NearbyBase
import NearbyMQTT
import NearbyRuntime
import Ranging
import Synchronization
import Testing

/// ``HouseFeed``: the house's messages as statuses and log entries (what `nearby watch --web`
/// shows), fed real ``HouseView`` updates.
@Suite struct HouseFeedTests {
    final class Sink: Sendable {
        let statuses = Mutex<[AccessoryStatus]>([])
        let logs = Mutex<[(text: String, time: Double?)]>([])
    }

    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    @Test func statesEventsDistancesAndHostStatusBecomeStatusesAndLogEntries() throws {
        let sink = Sink()
        let start = 1_700_000_000.0
        let feed = HouseFeed(
            zones: .standard, start: start, status: { status in sink.statuses.withLock { $0.append(status) } },
            log: { object, time in sink.logs.withLock { $0.append((object.text, time)) } })
        #expect(feed.context.zones == .standard && feed.context.start == start && feed.context.accessories.isEmpty)
        var house = HouseView()
        func apply(_ topic: String, _ text: String, retain: Bool = false) {
            if let update = house.apply(MQTTMessage(topic: topic, text: text, retain: retain)) { feed.observe(update, in: house) }
        }

        apply("nearby/hall/status", "online", retain: true)
        #expect(try json(try #require(sink.logs.withLock { $0.last?.text }))["message"] as? String == "hall: online")

        let state = #"{"host":"hall","accessory":"sim-1","name":"Keys","time":1700000004.5,"t_s":4.5,"session":"ranging","tracking":"tracking","zone":"mid","near":false,"distance_m":2.25,"raw_distance_m":2.31,"velocity_mps":-0.5,"azimuth_deg":-12.5,"elevation_deg":3,"confidence":0.9,"figure_of_merit":87,"nlos":false,"update_rate_hz":5,"updates":40,"zone_changes":2,"retries":1}"#
        apply("nearby/hall/sim-1/state", state, retain: true)
        let status = try #require(sink.statuses.withLock { $0.last })
        #expect(status.identity == AccessoryIdentity(id: "hall/sim-1", displayName: "Keys @ hall"))
        #expect(status.sessionState == "ranging" && status.sessionDetail == "ranging" && status.tracking == .tracking)
        #expect(status.distance == 2.25 && status.rawDistance == 2.31 && status.velocity == -0.5 && status.azimuth == -12.5 && status.elevation == 3)
        #expect(status.zone == ZoneRef(index: 1, name: "mid") && status.updateRate == 5 && status.confidence == 0.9 && status.isNonLineOfSight == false)
        // The FoM column of the page shows the host's angle figure of merit.
        #expect(status.figureOfMerit == 87)
        #expect(status.updates == 40 && status.zoneChanges == 2 && status.retries == 1 && status.lastUpdate == 1_700_000_004.5)
        // The page's status object on the feed's clock: 4.5 s after the watch started.
        #expect(try json(RunJSON.object(for: status, context: feed.context).text)["t_s"] as? Double == 4.5)

        // A distance on its own moves the dot.
        apply("nearby/hall/sim-1/distance", "1.9")
        #expect(sink.statuses.withLock { $0.last?.distance } == 1.9)

        // A zone change from the host: a ranging entry in the page's vocabulary.
        let logsBefore = sink.logs.withLock { $0.count }
        apply("nearby/hall/sim-1/event", #"{"t_s":5.2,"event":"ranging","accessory":"sim-1","name":"Keys","type":"zone","from":"mid","to":"near","zone":"near","host":"hall","time":1700000005.25,"distance_m":1.4}"#)
        let entry = try #require(sink.logs.withLock { $0.last })
        #expect(sink.logs.withLock { $0.count } == logsBefore + 1 && entry.time == 1_700_000_005.25)
        let change = try json(entry.text)
        #expect(change["t_s"] as? Double == 5.25 && change["event"] as? String == "ranging" && change["type"] as? String == "zone")
        #expect(change["accessory"] as? String == "hall/sim-1" && change["name"] as? String == "Keys @ hall")
        #expect(change["from"] as? String == "mid" && change["to"] as? String == "near" && change["distance_m"] as? Double == 1.4 && change["host"] as? String == "hall")
        // A retry keeps its keys.
        apply("nearby/hall/sim-1/event", #"{"event":"retry","type":"retry","reason":"timeout","action":"restart","attempt":1,"max_attempts":5,"delay_s":0.25,"time":1700000006}"#)
        let retry = try json(try #require(sink.logs.withLock { $0.last?.text }))
        #expect(retry["event"] as? String == "retry" && retry["attempt"] as? Int == 1 && retry["max_attempts"] as? Int == 5 && retry["reason"] as? String == "timeout")

        // A session change is logged; a zone this view's map does not have gets the next colour.
        apply("nearby/hall/sim-1/state", state.replacingOccurrences(of: #""session":"ranging""#, with: #""session":"stopped""#).replacingOccurrences(of: #""zone":"mid""#, with: #""zone":"porch""#), retain: true)
        let session = try json(try #require(sink.logs.withLock { $0.last?.text }))
        #expect(session["event"] as? String == "state" && session["state"] as? String == "stopped" && session["accessory"] as? String == "hall/sim-1")
        #expect(sink.statuses.withLock { $0.last?.zone } == ZoneRef(index: 3, name: "porch"))

        // The host goes offline: its accessories say so, and the log.
        apply("nearby/hall/status", "offline", retain: true)
        #expect(sink.statuses.withLock { $0.last?.sessionDetail } == "stopped (hall offline)")
        #expect(try json(try #require(sink.logs.withLock { $0.last?.text }))["message"] as? String == "hall: offline")

        // A cleared retained state: lost, removed, under its last name.
        apply("nearby/hall/sim-1/state", "", retain: true)
        let gone = try #require(sink.statuses.withLock { $0.last })
        #expect(gone.identity.displayName == "Keys @ hall" && gone.tracking == .lost && gone.sessionState == "removed")
    }
}
