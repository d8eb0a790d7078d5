import Foundation
import NearbyTestSupport
import Testing

/// `nearby watch URL --web`: the house view on the web page. A real broker (Debian's mosquitto),
/// a real host publishing to it (`nearby demo --accessories 2 --mqtt ... --mqtt-host hall`), the
/// watcher serving the view, read over HTTP (`/api/state`) and in Debian's headless Chromium
/// (`Tests/Peers/browser.py`).
@Suite(.serialized) struct WatchWebTests {
    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    func state(_ port: Int) async throws -> [String: Any] {
        let response = try await RawHTTPClient.request("/api/state", port: port)
        #expect(response.status == 200)
        return try json(response.body)
    }

    @Test func theHouseOnTheWebViewFollowsTheBroker() async throws {
        let broker = try await MosquittoBroker()
        let watch = try ChildProcess(PackagePaths.nearby, ["watch", broker.url(), "--web", "0"])
        defer { watch.terminate() }
        try await watch.waitForOutput("web view: http://127.0.0.1:", timeout: .seconds(60))
        let range = try #require(watch.stdout.range(of: #"web view: http://127\.0\.0\.1:(\d+)/"#, options: .regularExpression))
        let port = try #require(Int(watch.stdout[range].split(separator: ":").last?.dropLast() ?? ""))
        try await watch.waitForOutput("watching mqtt://127.0.0.1:\(broker.port)", timeout: .seconds(60))

        // Before any host: the page's zones from the configuration (the defaults), no accessory.
        let empty = try await state(port)
        #expect(empty["source"] as? String == "watch")
        #expect((empty["zones"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["near", "mid", "far"])
        #expect((empty["accessories"] as? [Any])?.isEmpty == true)

        let demo = try ChildProcess(PackagePaths.nearby, ["demo", "--scenario", "random-walk", "--accessories", "2", "--mqtt", broker.url(), "--mqtt-host", "hall"])
        defer { demo.terminate() }

        // Both accessories appear, each with distances that change, and a zone change reaches the log.
        let ids: Set = ["hall/sim-1", "hall/sim-2"]
        var distances: [String: Set<Double>] = [:]
        var tracking: [String: Set<String>] = [:]
        var latest: [String: Any] = [:]
        func complete() -> Bool {
            let events = latest["events"] as? [[String: Any]] ?? []
            return ids.allSatisfy { (distances[$0]?.count ?? 0) >= 3 }
                && events.contains { $0["event"] as? String == "ranging" && $0["type"] as? String == "zone" && ids.contains($0["accessory"] as? String ?? "") }
        }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(120))
        while clock.now < deadline {
            latest = try await state(port)
            for status in latest["accessories"] as? [[String: Any]] ?? [] {
                guard let id = status["accessory"] as? String else { continue }
                if let distance = status["distance_m"] as? Double { distances[id, default: []].insert(distance) }
                if let state = status["tracking"] as? String { tracking[id, default: []].insert(state) }
            }
            if complete() { break }
            try await Task.sleep(for: .milliseconds(200))
        }
        #expect(complete(), "distances: \(distances), state: \(latest)\nwatch: \(watch.stderr)\ndemo: \(demo.stderr)")
        let statuses = try #require(latest["accessories"] as? [[String: Any]])
        #expect(Set(statuses.compactMap { $0["accessory"] as? String }) == ids)
        for status in statuses {
            let id = status["accessory"] as? String ?? ""
            #expect(status["name"] as? String == id.split(separator: "/").last.map { "\($0) @ hall" })
            #expect(!["unknown", "idle"].contains(status["session_state"] as? String ?? "unknown"), "\(status)")
            #expect(tracking[id]?.contains("tracking") == true, "\(tracking)")
            // The zone named by the host, coloured by the watcher's map.
            let zone = status["zone"] as? String
            let expectedIndex = zone.flatMap { ["near": 0, "mid": 1, "far": 2][$0] }
            #expect(status["zone_index"] as? Int == expectedIndex, "\(status)")
            #expect((status["updates"] as? Int ?? 0) > 0 && (status["update_rate_hz"] as? Double ?? 0) > 0, "\(status)")
        }
        let events = try #require(latest["events"] as? [[String: Any]])
        let change = try #require(events.first { $0["event"] as? String == "ranging" && $0["type"] as? String == "zone" })
        #expect(change["host"] as? String == "hall" && (change["name"] as? String)?.hasSuffix(" @ hall") == true, "\(change)")
        #expect(["near", "mid", "far"].contains(change["to"] as? String ?? ""), "\(change)")
        #expect((change["t_s"] as? Double ?? -1) >= 0)
        #expect(events.contains { $0["event"] as? String == "note" && $0["message"] as? String == "hall: online" }, "\(events)")

        // The same in a browser: two dots, rings at the configured boundaries, a live zone change.
        let python = try PackagePaths.venvPython()
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium") else {
            throw MissingTool("/usr/bin/chromium is missing; run `make test`, which installs Debian's chromium")
        }
        let browser = try await ChildProcess.run(
            python, [PackagePaths.file("Tests/Peers/browser.py").path, "--url", "http://127.0.0.1:\(port)/", "--accessories", "2"],
            timeout: .seconds(300))
        #expect(browser.status == 0, "\(browser.stderr)\nwatch: \(watch.stderr)\ndemo: \(demo.stderr)")
        let report = try json(browser.stdout)
        #expect((report["exceptions"] as? [String]) == [], "\(report["exceptions"] ?? "")")
        let first = try #require(report["first"] as? [String: Any])
        #expect(Set((first["dots"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }) == ids)
        #expect(first["rings"] as? [Double] == [1.5, 3])
        let later = try #require(report["later"] as? [String: Any])
        let rows = try #require(later["rows"] as? [[String: Any]])
        #expect(rows.compactMap { ($0["cells"] as? [String: String])?["name"] }.sorted() == ["sim-1 @ hall", "sim-2 @ hall"], "\(rows)")
        let log = try #require(later["log"] as? [[String: Any]])
        #expect(log.contains { $0["type"] as? String == "zone" && ids.contains($0["accessory"] as? String ?? "") }, "\(log)")

        // The host goes away: its offline status reaches the log, the watcher keeps serving.
        demo.signal(SIGINT)
        #expect(try await demo.waitForExit(timeout: .seconds(60)) == 0, "\(demo.stderr)")
        var after = try await state(port)
        let until = clock.now.advanced(by: .seconds(60))
        func offline(_ state: [String: Any]) -> Bool {
            (state["events"] as? [[String: Any]] ?? []).contains { $0["message"] as? String == "hall: offline" }
        }
        while !offline(after), clock.now < until {
            try await Task.sleep(for: .milliseconds(200))
            after = try await state(port)
        }
        #expect(offline(after), "\(after)")
        let stopped = try #require(after["accessories"] as? [[String: Any]])
        #expect(stopped.allSatisfy { ($0["session_detail"] as? String)?.hasSuffix("(hall offline)") == true }, "\(stopped)")

        // The watcher stops: an open page is told (`end`), it does not try to reconnect.
        let viewer = try RawHTTPClient(port: port)
        defer { viewer.close() }
        viewer.send("GET", "/api/events", port: port)
        #expect(try await viewer.responseHead().status == 200)
        #expect(try await viewer.nextEvent().name == "hello")
        watch.signal(SIGINT)
        let end = try #require(try await viewer.events(until: "end", timeout: .seconds(60)).last)
        let ending = try json(end.data)
        #expect(ending["event"] as? String == "end" && ending["interrupted"] as? Bool == true && (ending["duration_s"] as? Double ?? 0) > 0, "\(end.data)")
        #expect(try await watch.waitForExit(timeout: .seconds(60)) == 0, "\(watch.stderr)")
    }
}
