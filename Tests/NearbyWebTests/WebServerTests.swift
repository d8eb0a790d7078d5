import Foundation
import NIProtocol
import NearbyConfig
import NearbyInteraction
import NearbyRuntime
import NearbyTestSupport
import Ranging
import Testing
@testable import NearbyWeb

/// The web view's HTTP server, spoken to over real sockets by a client that shares no code with
/// it (``NearbyTestSupport/RawHTTPClient``), fed by a real run: a recorded walk from 4 m to 1 m
/// replayed through the ranging engine (`data/synthetic/walk_4m_1m.csv`: 4 m → 1 m → 4 m → 1 m
/// → 4 m, every zone crossed both ways, no azimuth).
@Suite struct WebServerTests {
    static let token = "test-token-0123456789"
    let identity = AccessoryIdentity(id: "walk", displayName: "Walker")

    /// A view on 127.0.0.1 (any free port) and a run feeding it.
    func start(token: String? = nil, configure: (inout WebSettings) -> Void = { _ in }) async throws -> (WebView, RangingRun) {
        var settings = try WebSettings(address: WebAddress(parsing: "0"), token: token)
        configure(&settings)
        let web = try await WebView.start(settings, source: "replay")
        let context = RunContext(accessories: [identity], zones: .standard, start: 0, wallStart: 1_700_000_000)
        return (web, RangingRun(context: context, outputs: [web.output]))
    }

    func replay(_ run: RangingRun) async throws {
        let settings = try RunSettings(configuration: NearbyConfiguration())
        _ = try await TraceReplay.replay(
            path: PackagePaths.file("data/synthetic/walk_4m_1m.csv").path, speed: 0, identity: identity, settings: settings, into: run)
    }

    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    /// Waits for a condition the server reaches by itself (a closed connection noticed).
    func eventually(_ what: String, _ condition: () -> Bool) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(30))
        while !condition() {
            if clock.now >= deadline { Issue.record("not within 30 s: \(what)"); return }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    @Test func servesThePageItsAssetsAndTheStateWithTheirTypes() async throws {
        let (web, run) = try await start()
        defer { Task { await web.stop() } }
        let port = web.address.port
        #expect(web.url == "http://127.0.0.1:\(port)/")
        #expect(web.announcement == "web view: http://127.0.0.1:\(port)/", "no token: nothing to add")
        try await replay(run)

        let page = try await RawHTTPClient.request("/", port: port)
        #expect(page.status == 200 && page.headers["content-type"] == "text/html; charset=utf-8")
        #expect(page.body.contains("<svg id=\"radar\"") && page.body.contains("src=\"app.js\"") && !page.body.contains("__QUERY__"))
        #expect(page.headers["content-security-policy"]?.contains("default-src 'none'; script-src 'self'") == true)
        #expect(page.headers["x-content-type-options"] == "nosniff" && page.headers["cache-control"] == "no-store")
        #expect(page.headers["x-frame-options"] == "DENY" && page.headers["referrer-policy"] == "no-referrer")
        let script = try await RawHTTPClient.request("/app.js", port: port)
        #expect(script.status == 200 && script.headers["content-type"] == "text/javascript; charset=utf-8" && script.body.contains("EventSource"))
        let style = try await RawHTTPClient.request("/app.css", port: port)
        #expect(style.status == 200 && style.headers["content-type"] == "text/css; charset=utf-8" && style.body.contains("#radar"))
        // Nothing external: no http(s) address a browser would fetch.
        for asset in [page.body, script.body, style.body] {
            #expect(!asset.contains("https://") && !asset.contains("http://") || asset.contains("http://www.w3.org/2000/svg"))
        }

        let response = try await RawHTTPClient.request("/api/state", port: port)
        #expect(response.status == 200 && response.headers["content-type"] == "application/json")
        let state = try json(response.body)
        #expect(Set(state.keys) == ["version", "source", "t_s", "wall_start_s", "finished", "zones", "accessories", "events", "summary", "streams"])
        #expect(state["version"] as? Int == 1 && state["source"] as? String == "replay" && state["finished"] as? Bool == false)
        #expect(state["wall_start_s"] as? Double == 1_700_000_000)
        let zones = try #require(state["zones"] as? [[String: Any]])
        #expect(zones.map { $0["name"] as? String } == ["near", "mid", "far"])
        #expect(zones.map { $0["upper_m"] as? Double } == [1.5, 3, nil])
        #expect(zones.first?["enter_m"] as? Double == 1.4 && zones.first?["exit_m"] as? Double == 1.6)

        let accessories = try #require(state["accessories"] as? [[String: Any]])
        #expect(accessories.count == 1)
        let walker = try #require(accessories.first)
        let keys: Set<String> = [
            "t_s", "event", "accessory", "name", "session_state", "session_detail", "tracking", "distance_m", "raw_distance_m", "velocity_mps",
            "azimuth_deg", "elevation_deg", "confidence", "zone", "zone_index", "held", "figure_of_merit", "nlos", "update_rate_hz", "updates",
            "measured", "zone_changes", "retries", "configurations", "last_distance_m", "last_error", "dropped_samples", "raw_azimuth_deg",
            "raw_elevation_deg",
        ]
        #expect(Set(walker.keys) == keys)
        #expect(walker["accessory"] as? String == "walk" && walker["name"] as? String == "Walker" && walker["event"] as? String == "status")
        // The walk ends at 4 m: far, tracked, every sample an update.
        let status = try #require(run.status.status(of: "walk"))
        #expect(walker["zone"] as? String == "far" && walker["zone_index"] as? Int == 2 && walker["tracking"] as? String == "tracking")
        #expect(walker["updates"] as? Int == status.updates && status.updates > 100)
        #expect(abs((walker["distance_m"] as? Double ?? 0) - (status.distance ?? -1)) < 0.001)
        #expect(abs((walker["distance_m"] as? Double ?? 0) - 4) < 0.2)
        #expect(walker["zone_changes"] as? Int == 9 && walker["retries"] as? Int == 0)
        #expect(walker["azimuth_deg"] is NSNull && walker["raw_azimuth_deg"] is NSNull)
        #expect((walker["update_rate_hz"] as? Double ?? 0) > 1)

        // The events: every crossing, with its time.
        let events = try #require(state["events"] as? [[String: Any]])
        let zoneChanges = events.filter { $0["event"] as? String == "ranging" && $0["type"] as? String == "zone" }
        #expect(zoneChanges.map { $0["to"] as? String } == ["far", "mid", "near", "mid", "far", "mid", "near", "mid", "far"])
        #expect(zoneChanges.map { $0["from"] as? String } == [nil, "far", "mid", "near", "mid", "far", "mid", "near", "mid"])
        let times = zoneChanges.compactMap { $0["t_s"] as? Double }
        #expect(times == times.sorted() && times.count == 9)
        #expect((state["t_s"] as? Double ?? 0) >= times.last ?? .infinity)

        _ = await run.finish(interrupted: false)
        let ended = try json(try await RawHTTPClient.request("/api/state", port: port).body)
        #expect(ended["finished"] as? Bool == true)
        let summary = try #require(ended["summary"] as? [String: Any])
        #expect(summary["event"] as? String == "end" && summary["interrupted"] as? Bool == false)
        #expect((summary["summary"] as? [[String: Any]])?.first?["updates"] as? Int == status.updates)
    }

    @Test func refusalsHaveTheirStatusCodes() async throws {
        let (web, _) = try await start()
        defer { Task { await web.stop() } }
        let port = web.address.port
        let missing = try await RawHTTPClient.request("/nope", port: port)
        #expect(missing.status == 404 && missing.body.contains("/api/state"))
        let post = try await RawHTTPClient.request("/api/state", method: "POST", port: port)
        #expect(post.status == 405 && post.headers["allow"] == "GET, HEAD")
        let delete = try await RawHTTPClient.request("/", method: "DELETE", port: port)
        #expect(delete.status == 405)
        // A body is never read into memory: past 16 KiB the connection ends with 413.
        let upload = try RawHTTPClient(port: port)
        defer { upload.close() }
        upload.send("POST", "/api/state", port: port, headers: [("Content-Length", "1000000")], body: String(repeating: "x", count: 20_000))
        let tooLarge = try await upload.response()
        #expect(tooLarge.status == 413 && tooLarge.headers["connection"] == "close")
        let head = try await RawHTTPClient.request("/api/state", method: "HEAD", port: port)
        #expect(head.status == 200 && head.headers["content-type"] == "application/json" && (Int(head.headers["content-length"] ?? "") ?? 0) > 0)
        // DNS rebinding: a page of another site whose name resolves to 127.0.0.1.
        let rebound = try await RawHTTPClient.request("/api/state", port: port, headers: [("Host", "attacker.example:\(port)")])
        #expect(rebound.status == 403 && rebound.body.contains("attacker.example"))
        let local = try await RawHTTPClient.request("/api/state", port: port, headers: [("Host", "localhost:\(port)")])
        #expect(local.status == 200)
    }

    @Test func aTokenIsRequiredForEveryPathAndTheAssetsCarryIt() async throws {
        let token = Self.token
        let (web, _) = try await start(token: token)
        defer { Task { await web.stop() } }
        let port = web.address.port
        #expect(web.announcement == "web view: http://127.0.0.1:\(port)/ (add ?token=YOUR_TOKEN)" && !web.announcement.contains(token))
        for path in ["/", "/app.js", "/app.css", "/api/state", "/api/events", "/nope"] {
            let refused = try await RawHTTPClient.request(path, port: port)
            #expect(refused.status == 401 && refused.headers["www-authenticate"] == "Bearer realm=\"nearby\"", "\(path)")
            #expect(refused.body.contains("?token=") && !refused.body.contains(token), "\(path)")
            let wrong = try await RawHTTPClient.request(path + "?token=" + token.dropLast() + "X", port: port)
            #expect(wrong.status == 401, "\(path)")
        }
        let page = try await RawHTTPClient.request("/?token=\(token)", port: port)
        #expect(page.status == 200 && page.body.contains("src=\"app.js?token=\(token)\"") && page.body.contains("href=\"app.css?token=\(token)\""))
        let bearer = try await RawHTTPClient.request("/api/state", port: port, headers: [("Authorization", "Bearer \(token)")])
        #expect(bearer.status == 200)
        // With a token, the Host does not matter (a proxy or another machine).
        let proxied = try await RawHTTPClient.request("/api/state?token=\(token)", port: port, headers: [("Host", "nearby.lan")])
        #expect(proxied.status == 200)
    }

    @Test func aBusyPortIsExplained() async throws {
        let (web, _) = try await start()
        defer { Task { await web.stop() } }
        let settings = try WebSettings(address: WebAddress(host: "127.0.0.1", port: web.address.port), token: nil)
        await #expect {
            _ = try await WebView.start(settings, source: "demo")
        } throws: { error in
            guard let error = error as? WebError else { return false }
            return error.code == .bindFailed && error.description.contains("in use") && error.description.contains("--web 0")
        }
    }

    @Test func aStreamSendsHelloThenEventsAndStatusesInOrderThenEnd() async throws {
        let (web, run) = try await start()
        defer { Task { await web.stop() } }
        let port = web.address.port
        let client = try RawHTTPClient(port: port)
        defer { client.close() }
        client.send("GET", "/api/events", port: port)
        let head = try await client.responseHead()
        #expect(head.status == 200 && head.headers["content-type"] == "text/event-stream; charset=utf-8")
        #expect(head.headers["cache-control"] == "no-store" && head.headers["transfer-encoding"] == "chunked")
        let hello = try await client.nextEvent()
        #expect(hello.name == "hello")
        let state = try hello.object()
        #expect((state["accessories"] as? [[String: Any]])?.first?["updates"] as? Int == 0 && state["streams"] as? Int == 1)
        try await eventually("the stream is registered") { web.streamCount == 1 }

        try await replay(run)
        _ = await run.finish(interrupted: false)
        let events = try await client.events(until: "end")
        let statuses = try events.filter { $0.name == "status" }.map { try $0.object() }
        let logs = try events.filter { $0.name == "log" }.map { try $0.object() }
        #expect(!statuses.isEmpty && events.allSatisfy { ["status", "log", "end"].contains($0.name) })
        // Statuses may be coalesced, never reordered, and the last is the final state.
        let counts = statuses.compactMap { $0["updates"] as? Int }
        #expect(counts == counts.sorted())
        #expect(counts.last == run.status.status(of: "walk")?.updates)
        #expect(
            logs.filter { $0["type"] as? String == "zone" }.compactMap { $0["to"] as? String } == ["far", "mid", "near", "mid", "far", "mid", "near", "mid", "far"])
        // A zone change reaches the stream before the status of its own sample (and any later one).
        var latestStatus = -Double.infinity
        for event in events {
            let object = try event.object()
            let time = object["t_s"] as? Double ?? 0
            if event.name == "status" { latestStatus = max(latestStatus, time) }
            if event.name == "log", object["type"] as? String == "zone" { #expect(latestStatus < time, "\(object)") }
        }
        let end = try #require(events.last).object()
        #expect(end["event"] as? String == "end")
    }

    @Test func aClientThatDisconnectsMidStreamLeavesNothingBehind() async throws {
        let (web, run) = try await start()
        defer { Task { await web.stop() } }
        let port = web.address.port
        for _ in 0..<3 {
            let client = try RawHTTPClient(port: port)
            client.send("GET", "/api/events", port: port)
            _ = try await client.responseHead()
            #expect(try await client.nextEvent().name == "hello")
            client.close()
        }
        // The run goes on while the server notices.
        try await replay(run)
        try await eventually("every stream removed") { web.streamCount == 0 }
        try await eventually("every connection closed") { web.connectionCount == 0 }
        #expect(web.streamQueues.isEmpty)
        // And a new viewer gets the whole walk.
        let state = try json(try await RawHTTPClient.request("/api/state", port: port).body)
        #expect((state["accessories"] as? [[String: Any]])?.first?["updates"] as? Int == run.status.status(of: "walk")?.updates)
        #expect(state["streams"] as? Int == 0)
    }

    @Test func aSlowClientGetsTheLatestStateAndAGapNotAnUnboundedQueue() async throws {
        let limit = 32
        let (web, run) = try await start { $0.streamQueueLimit = limit }
        defer { Task { await web.stop() } }
        let port = web.address.port
        let client = try RawHTTPClient(port: port, receiveBuffer: 4096)
        defer { client.close() }
        client.send("GET", "/api/events", port: port)
        _ = try await client.responseHead()
        #expect(try await client.nextEvent().name == "hello")
        try await eventually("the stream is registered") { web.streamCount == 1 }
        client.pause()
        // Far more than the socket buffers and NIO's 64 KiB watermark hold: 4000 events of 1 KiB.
        let filler = String(repeating: "x", count: 1000)
        for i in 0..<4000 {
            run.note("note \(i) \(filler)")
            let queue = try #require(web.streamQueues.first)
            #expect(queue.logs <= limit && queue.statuses <= 1)
            if i % 500 == 0 { try await Task.sleep(for: .milliseconds(10)) }
        }
        try await replay(run)
        let queue = try #require(web.streamQueues.first)
        #expect(queue.dropped > 0, "the browser fell behind: \(queue)")
        #expect(queue.logs <= limit && queue.statuses <= 1)
        _ = await run.finish(interrupted: false)

        client.resume()
        let events = try await client.events(until: "end", timeout: .seconds(60))
        let gaps = try events.filter { $0.name == "gap" }.map { try $0.object()["dropped"] as? Int ?? 0 }
        #expect(!gaps.isEmpty && gaps.reduce(0, +) == web.streamQueues.first?.dropped, "\(gaps)")
        // The last status is the run's final state, whatever was skipped.
        let last = try #require(events.last { $0.name == "status" }).object()
        #expect(last["updates"] as? Int == run.status.status(of: "walk")?.updates)
        // Fewer bytes crossed than were published: the rest was dropped or coalesced.
        #expect(client.received < 4000 * 1000)
        #expect(events.filter { $0.name == "log" }.count < 4000)
    }

    @Test func streamsBeyondTheLimitGet503() async throws {
        let (web, _) = try await start { $0.maxStreams = 2 }
        defer { Task { await web.stop() } }
        let port = web.address.port
        var open: [RawHTTPClient] = []
        for _ in 0..<2 {
            let client = try RawHTTPClient(port: port)
            client.send("GET", "/api/events", port: port)
            #expect(try await client.responseHead().status == 200)
            open.append(client)
        }
        let third = try await RawHTTPClient.request("/api/events", port: port)
        #expect(third.status == 503 && third.headers["retry-after"] == "5")
        open[0].close()
        try await eventually("a slot is free") { web.streamCount == 1 }
        let fourth = try RawHTTPClient(port: port)
        defer { fourth.close() }
        fourth.send("GET", "/api/events", port: port)
        #expect(try await fourth.responseHead().status == 200)
        open[1].close()
    }
}
