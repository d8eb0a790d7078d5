#if canImport(Glibc)
import Glibc
#endif
import Accessories
import Foundation
import Hooks
import LowEnergy
import NIProtocol
import NearbyConfig
import NearbyInteraction
import NearbyRuntime
@testable import NearbyTerminal
import Ranging
import Synchronization
import Testing
import UCI

/// Text collected from an output's `write`.
final class Collected: Sendable {
    private let text = Mutex("")
    var lines: [String] { text.withLock { $0 }.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
    var all: String { text.withLock { $0 } }
    @Sendable func write(_ more: String) { text.withLock { $0 += more } }
}

@Suite("NearbyTerminal: screens and outputs")
struct NearbyTerminalTests {
    @Test func arrowPointsWhereTheAccessoryIs() {
        #expect(RangeScreen.arrow(0) == "↑")
        #expect(RangeScreen.arrow(90) == "→")
        #expect(RangeScreen.arrow(-90) == "←")
        #expect(RangeScreen.arrow(180) == "↓")
        #expect(RangeScreen.arrow(44) == "↗")
        #expect(RangeScreen.arrow(-382) == "↑")
    }

    @Test("plain mode: events as lines, one status line per accessory at most once a second, notes and hooks")
    func plainScreen() async throws {
        var configuration = NearbyConfiguration()
        configuration.filter = FilterSettings(spec: FilterSpec(.raw))
        let settings = try RunSettings(configuration: configuration)
        let keys = AccessoryIdentity(id: "k", displayName: "Keys")
        let collected = Collected()
        let screen = RangeScreen(mode: .plain, zones: settings.zones, start: 1000, write: collected.write)
        #expect(screen.output === screen)
        let context = RunContext(accessories: [keys], zones: settings.zones, start: 1000, wallStart: 0)
        let run = RangingRun(context: context, outputs: [screen.output], hooks: nil)
        var pipeline = settings.makePipeline()
        for (t, d) in [(1000.0, 4.0), (1000.5, 2.0), (1001.0, 2.0), (1001.5, 2.0), (1002.2, 2.0)] {
            run.handle(NearbySessionEvent(accessory: keys, time: t, kind: .update(pipeline.process(RangeSample(timestamp: t, distance: d)))))
        }
        screen.note("a note")
        _ = await run.finish(interrupted: false)
        let lines = collected.lines
        let status = lines.filter { $0.contains(" Keys ") && $0.contains(" m ") }
        #expect(status.count == 3, "\(lines)")
        #expect(status.first?.hasPrefix("   0.000 s  Keys       4.00 m ") == true)
        #expect(status.last?.hasPrefix("   2.200 s  Keys       2.00 m ") == true && status.last?.contains("mid") == true)
        #expect(lines.contains { $0.hasPrefix("   1.000 s  Keys: ") && $0.contains("mid") }, "the zone change at 1.0 s: \(lines)")
        #expect(lines.contains("a note"))
        #expect(!collected.all.contains("\u{1B}["), "plain mode writes no escape sequences")
    }

    @Test("JSON mode hands the run to the JSON lines output")
    func jsonScreen() {
        let screen = RangeScreen(mode: .json, zones: .standard, start: 0, write: { _ in })
        #expect(screen.output is JSONLinesOutput)
        #expect(RangeScreen.mode(json: true) == .json)
    }

    @Test("nearby uwb range's lines and JSON objects")
    func uwbRangeOutput() throws {
        let sample = UCIPeerRangeSample(
            session: 42, peer: .short(2),
            sample: RangeSample(timestamp: 11.5, distance: 1.5, azimuth: 10.25, elevation: -3, figureOfMerit: 90, isNonLineOfSight: false))
        #expect(UWBRangeOutput(json: false).line(sample, start: 10)
            == "   1.500 s  0x0002    1.50 m  azimuth   10.2°  elevation  -3.0°  FoM 90  LoS")
        let json = UWBRangeOutput(json: true).line(sample, start: 10)
        #expect(json == #"{"t_s":1.500,"peer":"0x0002","distance_m":1.5,"azimuth_deg":10.25,"elevation_deg":-3.0,"fom":90,"nlos":false,"status":"OK"}"#)
        let timeout = UCIPeerRangeSample(session: 42, peer: .short(2), sample: RangeSample(timestamp: 9, status: 0x21))
        let line = UWBRangeOutput(json: false).line(timeout, start: 10)
        #expect(line.hasPrefix("   0.000 s  0x0002  no measurement: "))
        let object = try #require(JSONSerialization.jsonObject(with: Data(UWBRangeOutput(json: true).line(timeout, start: 10).utf8)) as? [String: Any])
        #expect(object["distance_m"] is NSNull && object["fom"] is NSNull && object["t_s"] as? Double == 0)
    }

    @Test("log metadata values are quoted and escaped only when they need it")
    func logQuoting() {
        #expect(StderrLogHandler.quote("plain") == "plain")
        #expect(StderrLogHandler.quote("two words") == "\"two words\"")
        #expect(StderrLogHandler.quote("a\nb\t\"c\" \\") == "\"a\\nb\\t\\\"c\\\" \\\\\"")
    }

    @Test("a pick given in advance is scripted; it reports what it finds")
    func scriptedPick() {
        let frontEnd = PickerFrontEnds.make(pick: "first")
        #expect(frontEnd is ScriptedFrontEnd)
        #expect(frontEnd.scriptedChoice == PickerChoice(parsing: "first", allowNumbers: false))
        frontEnd.finish()
    }

    @Test("pairing answers given in advance; without them and without a terminal, pairing is refused")
    func pairingAnswers() async {
        let peer = BluetoothAddress("F0:F1:F2:F3:F4:F5")!
        let scripted = TerminalPairingDelegate(passkey: 123_456, confirms: true, interactive: false)
        #expect(await scripted.requestPasskey(peer: peer) == 123_456)
        #expect(await scripted.confirmNumber(42, peer: peer))
        #expect(scripted.securityConfiguration.ioCapability == .keyboardDisplay)
        let silent = TerminalPairingDelegate(passkey: nil, confirms: false, interactive: false)
        #expect(await silent.requestPasskey(peer: peer) == nil)
        #expect(await !silent.confirmNumber(42, peer: peer))
        #expect(silent.securityConfiguration.ioCapability == .noInputNoOutput)
        #expect(TerminalPairingDelegate.sixDigits(42) == "000042")
    }
}

/// Signals in this process, serialized. `kill(getpid(), ...)`, not `raise`: a test runs on a
/// pool thread that blocks signals, and a signal raised to that thread stays pending there
/// forever. SIGINT / SIGTERM are not sent to the test process (a moment without a handler would
/// end the whole run): `waitForSignalOr`, `cancellingOnSignal` and `onSignal` are exercised by the
/// CLI tests that signal `nearby` processes (`aSignalStopsAndDeinitializesTheSession`, replay and
/// range interruption).
@Suite("NearbyTerminal: signals", .serialized)
struct SignalTests {
    @Test func aSignalArrivesOnTheStream() async {
        let signals = SignalStream([SIGUSR1, SIGUSR2])
        kill(getpid(), SIGUSR2)
        let received = await withTaskGroup(of: Int32?.self) { group in
            group.addTask {
                for await number in signals.stream { return number }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(60))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        signals.cancel()
        #expect(received == SIGUSR2)
        #expect(SignalStream.describe(SIGINT) == "interrupted (SIGINT)" && SignalStream.describe(SIGTERM) == "terminated (SIGTERM)")
    }

    @Test func workThatEndsByItselfIsNotCancelled() async {
        let done = await cancellingOnSignal { 5 }
        #expect((try? done.get()) == 5)
        let value = await onSignal({ _ in }) { () async -> Int in 7 }
        #expect(value == 7)
    }
}
