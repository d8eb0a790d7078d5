import Foundation
import NIProtocol
import NearbyBase
import NearbyRuntime
import NearbyTestSupport
import Ranging
import Testing
import NearbyWeb

/// A view fed by a source that is not a run (``WebView/begin(_:)``, ``WebView/publish(status:rawAzimuth:rawElevation:)``,
/// ``WebView/publish(log:at:)``), read over a real socket.
@Suite struct WebViewPublishTests {
    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    @Test func statusesAndLogEntriesPublishedDirectlyAreServedAndStreamed() async throws {
        let web = try await WebView.start(try WebSettings(address: WebAddress(parsing: "0"), token: nil), source: "watch")
        defer { Task { await web.stop() } }
        let port = web.address.port
        web.begin(RunContext(accessories: [], zones: .standard, start: 1_700_000_000, wallStart: 1_700_000_000))
        let viewer = try RawHTTPClient(port: port)
        defer { viewer.close() }
        viewer.send("GET", "/api/events", port: port)
        #expect(try await viewer.responseHead().status == 200)
        let hello = try await viewer.nextEvent()
        let first = try json(hello.data)
        #expect(hello.name == "hello" && (first["accessories"] as? [Any])?.isEmpty == true)

        var status = AccessoryStatus(identity: AccessoryIdentity(id: "hall/keys", displayName: "Keys @ hall"))
        status.sessionState = "ranging"
        status.sessionDetail = "ranging"
        status.tracking = .tracking
        status.distance = 1.25
        status.zone = ZoneRef(index: 0, name: "near")
        status.lastUpdate = 1_700_000_002.5
        web.publish(log: JSONObject([("t_s", .number(2.5, decimals: 3)), ("event", .string("ranging")), ("accessory", .string("hall/keys")), ("type", .string("zone")), ("to", .string("near"))]), at: 1_700_000_002.5)
        web.publish(status: status, rawAzimuth: 12)

        let log = try await viewer.nextEvent()
        let entry = try json(log.data)
        #expect(log.name == "log" && entry["to"] as? String == "near")
        let streamed = try await viewer.nextEvent()
        let object = try json(streamed.data)
        #expect(streamed.name == "status" && object["accessory"] as? String == "hall/keys" && object["raw_azimuth_deg"] as? Double == 12)
        #expect(object["t_s"] as? Double == 2.5 && object["zone_index"] as? Int == 0 && object["distance_m"] as? Double == 1.25)

        let state = try json(try await RawHTTPClient.request("/api/state", port: port).body)
        #expect(state["source"] as? String == "watch" && state["t_s"] as? Double == 2.5 && state["wall_start_s"] as? Double == 1_700_000_000)
        #expect((state["accessories"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Keys @ hall"])
        #expect((state["events"] as? [[String: Any]])?.count == 1)
    }
}
