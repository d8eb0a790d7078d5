import Foundation
import NearbyTestSupport
import Testing

/// `--web`: the built `nearby` serves its live view while it runs; a real browser (Debian's
/// headless Chromium, driven over the DevTools protocol by `Tests/Peers/browser.py`) and a raw
/// HTTP client look at it.
@Suite struct WebViewTests {
    /// `nearby demo ... --web 0` running, and the page's address it printed.
    func demo(_ arguments: [String], environment: [String: String] = [:]) async throws -> (ChildProcess, port: Int) {
        let process = try ChildProcess(PackagePaths.nearby, ["demo", "--web", "0"] + arguments, environment: environment)
        try await process.waitForOutput("web view: http://127.0.0.1:", timeout: .seconds(60))
        let text = process.stdout + process.stderr
        let range = try #require(text.range(of: #"web view: http://127\.0\.0\.1:(\d+)/"#, options: .regularExpression))
        let port = try #require(Int(text[range].split(separator: ":").last?.dropLast() ?? ""))
        return (process, port)
    }

    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    @Test func aBrowserSeesThreeAccessoriesMoveAndAZoneChangeArrive() async throws {
        let screenshot = PackagePaths.file(".build/web-view-test.png").path
        let python = try PackagePaths.venvPython()
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium") else {
            throw MissingTool("/usr/bin/chromium is missing; run `make test`, which installs Debian's chromium")
        }
        // One of ChildProcess.run's slots for the whole test, taken before the demo starts: the
        // demo's 70 s run from its start, and a browser queued behind the CLI suites' commands
        // once looked at a demo that had already stopped moving.
        await RunSlots.shared.acquire()
        defer { Task { await RunSlots.shared.release() } }
        let (demo, port) = try await demo(["--accessories", "3", "--speed", "1"])
        defer { demo.terminate() }
        let browserProcess = try ChildProcess(
            python, [PackagePaths.file("Tests/Peers/browser.py").path, "--url", "http://127.0.0.1:\(port)/", "--accessories", "3", "--screenshot", screenshot])
        let browser = (status: try await browserProcess.waitForExit(timeout: .seconds(300)), stdout: browserProcess.stdout, stderr: browserProcess.stderr)
        #expect(browser.status == 0, "\(browser.stderr)\ndemo: \(demo.stderr)")
        let report = try json(browser.stdout)
        let first = try #require(report["first"] as? [String: Any])
        let later = try #require(report["later"] as? [String: Any])
        #expect((report["exceptions"] as? [String]) == [], "\(report["exceptions"] ?? "")")

        // The radar: three dots, one per accessory, and rings at the configured boundaries.
        let dots = try #require(first["dots"] as? [[String: Any]])
        #expect(Set(dots.compactMap { $0["id"] as? String }) == ["sim-1", "sim-2", "sim-3"])
        #expect(first["rings"] as? [Double] == [1.5, 3])
        #expect(first["title"] as? String == "nearby")
        // Colour by zone: near, mid, far in the page's palette; the zone is the table's.
        let palette = ["near": "#2e9d5b", "mid": "#e0a526", "far": "#3b7dd8"]
        let laterDots = try #require(later["dots"] as? [[String: Any]])
        let rows = try #require(later["rows"] as? [[String: Any]])
        for dot in laterDots {
            let zone = dot["zone"] as? String ?? ""
            if let colour = palette[zone] { #expect(dot["fill"] as? String == colour, "\(dot)") }
            let row = try #require(rows.first { $0["id"] as? String == dot["id"] as? String })
            let cells = try #require(row["cells"] as? [String: String])
            #expect(cells["name"]?.hasSuffix(dot["id"] as? String ?? "?") == true, "\(cells)")
            #expect(cells["zone"] == zone || zone.isEmpty, "\(cells) \(dot)")
            for column in ["distance", "velocity", "rate", "fom", "session", "retries"] { #expect(cells[column]?.isEmpty == false, "\(column): \(cells)") }
            #expect((dot["label"] as? String)?.contains(" m") == true)
        }
        // The distances change.
        let before = Dictionary(uniqueKeysWithValues: dots.map { ($0["id"] as? String ?? "", $0["distance"] as? Double ?? 0) })
        #expect(laterDots.contains { before[$0["id"] as? String ?? ""] != $0["distance"] as? Double })

        // Every zone change the server had before the page's last update of an accessory is in
        // the page's log: a change shows no later than the next update (DOM, not timings).
        let consistency = try #require(report["consistency"] as? [String: Any])
        let page = try #require(consistency["page"] as? [String: Any])
        let state = try #require(consistency["state"] as? [String: Any])
        #expect(consistency["status"] as? Int == 200)
        let pageRows = try #require(page["rows"] as? [[String: Any]])
        let pageLog = try #require(page["log"] as? [[String: Any]])
        let seenUntil = Dictionary(uniqueKeysWithValues: pageRows.map { ($0["id"] as? String ?? "", $0["t"] as? Double ?? -1) })
        let serverChanges = try #require(state["events"] as? [[String: Any]]).filter { $0["event"] as? String == "ranging" && $0["type"] as? String == "zone" }
        var checked = 0
        for change in serverChanges {
            let id = change["accessory"] as? String ?? ""
            let time = change["t_s"] as? Double ?? .infinity
            guard time <= seenUntil[id] ?? -1 else { continue }
            checked += 1
            #expect(
                pageLog.contains { $0["type"] as? String == "zone" && $0["accessory"] as? String == id && abs(($0["t"] as? Double ?? -1) - time) < 0.0005 && $0["to"] as? String == change["to"] as? String },
                "zone change \(change) is not in the page's log")
        }
        #expect(checked > 0)
        // At least one arrived live (after the page connected), not only in the first state.
        let connectedAt = page["connectedAt"] as? Double ?? .infinity
        #expect(pageLog.contains { $0["type"] as? String == "zone" && ($0["t"] as? Double ?? 0) > connectedAt }, "\(pageLog)")
        // Log lines read as text: "far → mid" or "entered far".
        #expect(pageLog.filter { $0["type"] as? String == "zone" }.allSatisfy { ($0["text"] as? String)?.contains("→") == true || ($0["text"] as? String)?.contains("entered") == true })

        // The raw / smoothed toggle.
        let raw = try #require(report["raw"] as? [String: Any])
        #expect(raw["mode"] as? String == "raw" && (raw["dots"] as? [Any])?.count == 3)

        // A real picture.
        let png = try Data(contentsOf: URL(fileURLWithPath: screenshot))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && png.count > 10_000)
        demo.signal(SIGINT)
        #expect(try await demo.waitForExit(timeout: .seconds(60)) == 0)
    }

    @Test func theEndpointsDuringADemoAndAViewerThatLeavesMidStream() async throws {
        let (demo, port) = try await demo(["--accessories", "2", "--speed", "2", "--json"])
        defer { demo.terminate() }
        let page = try await RawHTTPClient.request("/", port: port)
        #expect(page.status == 200 && page.headers["content-type"] == "text/html; charset=utf-8")
        // The accessories appear with their first session event; on a loaded machine that can
        // come after the address is printed, so wait for them (behaviour, not timing).
        var first = try json(try await RawHTTPClient.request("/api/state", port: port).body)
        let appeared = ContinuousClock.now.advanced(by: .seconds(60))
        while ((first["accessories"] as? [Any])?.count ?? 0) < 2, ContinuousClock.now < appeared {
            try await Task.sleep(for: .milliseconds(100))
            first = try json(try await RawHTTPClient.request("/api/state", port: port).body)
        }
        #expect(first["source"] as? String == "demo")
        #expect((first["accessories"] as? [[String: Any]])?.compactMap { $0["accessory"] as? String } == ["sim-1", "sim-2"])
        #expect((first["zones"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["near", "mid", "far"])

        // A viewer reads a few events and goes away without a word.
        let viewer = try RawHTTPClient(port: port)
        viewer.send("GET", "/api/events", port: port)
        #expect(try await viewer.responseHead().status == 200)
        #expect(try await viewer.nextEvent().name == "hello")
        _ = try await viewer.events(until: "status")
        viewer.close()

        // The run goes on, and the server let go of the stream.
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(60))
        var later = first
        func updates(_ state: [String: Any]) -> Int {
            (state["accessories"] as? [[String: Any]])?.compactMap { $0["updates"] as? Int }.reduce(0, +) ?? 0
        }
        while clock.now < deadline {
            later = try json(try await RawHTTPClient.request("/api/state", port: port).body)
            if later["streams"] as? Int == 0, updates(later) > updates(first) + 20 { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(later["streams"] as? Int == 0)
        #expect(updates(later) > updates(first) + 20)
        #expect(demo.isRunning)
        demo.signal(SIGINT)
        #expect(try await demo.waitForExit(timeout: .seconds(60)) == 0)
        // The JSON lines on standard output are not disturbed by the view.
        #expect(demo.stdout.split(separator: "\n").allSatisfy { $0.hasPrefix("{") })
    }

    @Test func tokensAndAddresses() async throws {
        let token = "cli-test-token-0123456789"
        // Another address than loopback needs a token; nothing is bound without one.
        let open = try await ChildProcess.run(PackagePaths.nearby, ["demo", "--web", "0.0.0.0:0", "--duration", "1"])
        #expect(open.status == 64 && open.stderr.contains("needs a token") && open.stderr.contains("--web-token"), "\(open.stderr)")
        let short = try await ChildProcess.run(PackagePaths.nearby, ["demo", "--web", "0", "--web-token", "abc", "--duration", "1"])
        #expect(short.status == 64 && short.stderr.contains("--web-token") && short.stderr.contains("16-256"), "\(short.stderr)")
        let address = try await ChildProcess.run(PackagePaths.nearby, ["demo", "--web", "example.org:80", "--duration", "1"])
        #expect(address.status == 64 && address.stderr.contains("--web") && address.stderr.contains("not an IP address"), "\(address.stderr)")
        let replay = try await ChildProcess.run(PackagePaths.nearby, ["replay", "data/synthetic/walk_4m_1m.csv", "--web", "1.2.3"])
        #expect(replay.status == 64 && replay.stderr.contains("--web"), "\(replay.stderr)")
        let alone = try await ChildProcess.run(PackagePaths.nearby, ["demo", "--web-token", token, "--duration", "1"])
        #expect(alone.status == 64 && alone.stderr.contains("--web-token needs --web"), "\(alone.stderr)")

        // The token from the environment: the page needs it, the printed address does not show it.
        let (demo, port) = try await demo(["--speed", "2"], environment: ["NEARBY_WEB_TOKEN": token])
        defer { demo.terminate() }
        #expect(!(demo.stdout + demo.stderr).contains(token))
        #expect((demo.stdout + demo.stderr).contains("(add ?token=YOUR_TOKEN)"))
        #expect(try await RawHTTPClient.request("/api/state", port: port).status == 401)
        let state = try await RawHTTPClient.request("/api/state?token=\(token)", port: port)
        #expect(state.status == 200 && state.headers["content-type"] == "application/json")
        demo.signal(SIGINT)
        _ = try await demo.waitForExit(timeout: .seconds(60))
    }

    @Test func aReplayServesItsViewToo() async throws {
        let process = try ChildProcess(PackagePaths.nearby, ["replay", PackagePaths.file("data/synthetic/walk_4m_1m.csv").path, "--speed", "1", "--web", "0"])
        defer { process.terminate() }
        try await process.waitForOutput("web view: http://127.0.0.1:", timeout: .seconds(60))
        let range = try #require(process.stderr.range(of: #"127\.0\.0\.1:(\d+)"#, options: .regularExpression))
        let port = try #require(Int(process.stderr[range].split(separator: ":").last ?? ""))
        let state = try json(try await RawHTTPClient.request("/api/state", port: port).body)
        #expect(state["source"] as? String == "replay")
        #expect((state["accessories"] as? [[String: Any]])?.first?["accessory"] as? String == "walk_4m_1m.csv")
        process.signal(SIGINT)
        _ = try await process.waitForExit(timeout: .seconds(60))
    }
}
