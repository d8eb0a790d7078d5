import Accessories
import Foundation
import LowEnergy
import NIProtocol
import NearbyConfig
import NearbyInteraction
import NearbyRuntime
import NearbySupport
@testable import NearbyTerminal
import Ranging
import Synchronization
import Testing
import UCI
import UWBDevice

/// A run source fed by the test: its events end when it is closed.
final class ScriptedSource: RunSource {
    let events = Mailbox<NearbySessionEvent>()
    let closes = Mutex(0)
    var droppedUpdates: Int { 0 }
    func close() async {
        closes.withLock { $0 += 1 }
        events.finish()
    }
}

/// What happened, in order (closing the source, stopping, ...).
final class Steps: Sendable {
    private let steps = Mutex<[String]>([])
    var all: [String] { steps.withLock { $0 } }
    func add(_ step: String) { steps.withLock { $0.append(step) } }
}

@Suite("NearbyTerminal: the terminal run (range, accessory, demo)")
struct TerminalRunTests {
    let keys = AccessoryIdentity(id: "k", displayName: "Keys")

    func makeRun(_ source: ScriptedSource, _ collected: Collected, _ steps: Steps) -> TerminalRun {
        let screen = RangeScreen(mode: .plain, zones: .standard, start: 100, write: collected.write)
        return TerminalRun(source: source, screen: screen, stop: { steps.add("stop") })
    }

    @Test("the run shows the events, closes the source, then stops and prints the summary")
    func runsToTheEnd() async throws {
        let source = ScriptedSource()
        let collected = Collected()
        let steps = Steps()
        let session = makeRun(source, collected, steps)
        let extra = Collected()
        session.add(JSONLinesOutput(write: extra.write, notes: { _ in }))
        session.add(nil)
        var pipeline = try RunSettings(configuration: NearbyConfiguration()).makePipeline()
        let keys = keys
        let (interrupted, summary) = await session.run(
            accessories: [keys], hooks: nil,
            startSessions: { run in
                run.note("sessions started")
                for t in [100.0, 100.2, 100.4] {
                    _ = source.events.post(NearbySessionEvent(accessory: keys, time: t, kind: .update(pipeline.process(RangeSample(timestamp: t, distance: 1)))))
                }
            },
            afterClose: { steps.add("after close: \(source.closes.withLock { $0 }) close(s)") },
            until: { source.events.count == 0 })
        #expect(!interrupted)
        #expect(summary.accessories.first?.updates == 3)
        #expect(steps.all == ["after close: 1 close(s)", "stop"])
        let lines = collected.lines
        #expect(lines.contains("sessions started"))
        let summaryAt = try #require(lines.firstIndex(of: "summary:"), "\(lines)")
        #expect(lines[summaryAt + 1].hasPrefix("  Keys"), "\(lines)")
        #expect(extra.all.contains(#""event":"update""#) && extra.all.contains(#""updates":3"#), "an added output gets the events and the summary: \(extra.all)")
    }

    @Test("a trace file that cannot be created: error, the source is closed, the run stops, exit 1")
    func recordFailure() async throws {
        let source = ScriptedSource()
        let steps = Steps()
        let session = makeRun(source, Collected(), steps)
        try await session.record(to: nil)
        #expect(source.closes.withLock { $0 } == 0, "no --record: nothing to do")
        await #expect(throws: TerminalExit.failure) { try await session.record(to: "/nonexistent-directory/trace.csv") }
        #expect(source.closes.withLock { $0 } == 1 && steps.all == ["stop"])
    }

    @Test("an output that cannot be made: the source is closed, the run stops, the error goes on")
    func outputFailure() async {
        struct Broken: Error {}
        let source = ScriptedSource()
        let steps = Steps()
        let session = makeRun(source, Collected(), steps)
        await #expect(throws: Broken.self) { try await session.add { throw Broken() } }
        #expect(source.closes.withLock { $0 } == 1 && steps.all == ["stop"])
    }

    @Test("a trace file that can be created records the samples")
    func recordsSamples() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("terminal-run-\(UUID().uuidString).csv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let source = ScriptedSource()
        let session = makeRun(source, Collected(), Steps())
        try await session.record(to: path)
        var pipeline = try RunSettings(configuration: NearbyConfiguration()).makePipeline()
        let keys = keys
        _ = await session.run(
            accessories: [keys], hooks: nil,
            startSessions: { _ in
                _ = source.events.post(NearbySessionEvent(accessory: keys, time: 100.5, kind: .update(pipeline.process(RangeSample(timestamp: 100.5, distance: 2)))))
            },
            until: { source.events.count == 0 })
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.split(separator: "\n").count == 2 && text.contains(",k"), "header and one row for Keys: \(text)")
    }
}

@Suite("NearbyTerminal: packet captures")
struct CaptureReportTests {
    @Test("no path: no capture; an unwritable path: exit 1; a capture that lost nothing says nothing")
    func openAndFinish() throws {
        #expect(try CaptureReport.uci(nil, interface: "sim", maximumMiB: 1) == nil)
        #expect(try CaptureReport.hci(nil, maximumMiB: 1) == nil)
        #expect(throws: TerminalExit.failure) { try CaptureReport.uci("/nonexistent-directory/u.pcapng", interface: "sim", maximumMiB: 1) }
        #expect(throws: TerminalExit.failure) { try CaptureReport.hci("/nonexistent-directory/h.log", maximumMiB: 1) }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("capture-\(UUID().uuidString).pcapng").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let capture = try #require(try CaptureReport.uci(path, interface: "sim", maximumMiB: 1))
        capture.record([0x20, 0x02, 0x00, 0x00], direction: .sent)
        #expect(CaptureReport.loss("--uci-log", capture.file) == nil)
        CaptureReport.finish("--uci-log", capture.file)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0 > 0)
        #expect(CaptureReport.failure("--uci-log", FileSystemError(path: path, operation: "write", errno: 28)).hasPrefix("warning: --uci-log: "))
    }
}

@Suite("NearbyTerminal: descriptor errors in the words of the flags")
struct DescriptorFlagTests {
    func message(service: String? = nil, company: String? = nil, manufacturerData: String? = nil, name: String? = nil) -> String? {
        do {
            _ = try DiscoveryDescriptor(service: service, company: company, manufacturerData: manufacturerData, serviceData: nil, nameSubstring: name)
            return nil
        } catch {
            return error.flagDescription
        }
    }

    @Test func eachErrorNamesItsFlag() {
        #expect(message(service: "180D") == nil)
        #expect(message(service: "xyz")?.hasPrefix("--service ") == true)
        #expect(message(company: "0xZZ")?.hasPrefix("--company ") == true)
        #expect(message(company: "76", manufacturerData: "0g")?.hasPrefix("--manufacturer-data ") == true)
        #expect(message(service: "180D", manufacturerData: "0a")?.hasSuffix("(--manufacturer-data needs --company)") == true)
        #expect(message(name: "tag")?.hasSuffix("(give --service or --company)") == true)
    }
}

@Suite("NearbyTerminal: nearby uci decode's inputs")
struct UCIDecodeInputTests {
    @Test func argumentsElseTheNonBlankLinesOfStandardInput() {
        let given = UCITextDecoder.inputs(arguments: ["20 00 00 01 00", "40 00"], lines: { Issue.record("stdin read"); return nil })
        #expect(given.map(\.label) == ["argument 1", "argument 2"] && given.map(\.text) == ["20 00 00 01 00", "40 00"])
        var lines = ["20000000", "  ", "40000000"][...]
        let read = UCITextDecoder.inputs(arguments: [], lines: { lines.popFirst() })
        #expect(read.map(\.label) == ["line 1", "line 3"] && read.map(\.text) == ["20000000", "40000000"])
    }
}

@Suite("NearbyTerminal: nearby scan's printing")
struct ScanPrinterTests {
    func advertisement(name: String, rssi: Int8) -> Advertisement {
        let data = AdvertisingData(parsing: [0x02, 0x01, 0x06, UInt8(name.utf8.count + 1), 0x09] + Array(name.utf8))
        return Advertisement(address: BluetoothAddress("F0:F1:F2:F3:F4:F5")!, addressType: .random, rssi: rssi, eventType: .advInd,
                             reportData: data, data: data, txPower: nil, timestamp: .now)
    }

    @Test("matching advertisements are printed once until they change; stop ends the scan")
    func printsUntilTheDurationThenStops() async throws {
        let (stream, continuation) = AsyncStream.makeStream(of: Advertisement.self)
        for (name, rssi) in [("Tag", Int8(-60)), ("Tag", -61), ("Other", -50), ("Tag", -70)] {
            continuation.yield(advertisement(name: name, rssi: rssi))
        }
        let filter = try AdvertisementFilter(service: nil, company: nil, manufacturerData: nil, serviceData: nil, nameSubstring: "Tag",
                                             ignoringCase: false, range: .default)
        let collected = Collected()
        let stops = Steps()
        await ScanPrinter.run(stream, filter: filter, json: false, duration: 0.05, write: { collected.write($0 + "\n") }, stop: {
            stops.add("stop")
            continuation.finish()
        })
        #expect(stops.all == ["stop"])
        let lines = collected.lines.filter { !$0.isEmpty }
        #expect(lines.count == 2 && lines.allSatisfy { $0.contains("Tag") }, "first heard, then the RSSI moved by 3 dB or more: \(lines)")
    }
}
