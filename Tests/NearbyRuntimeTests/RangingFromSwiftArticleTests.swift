// The code of the DocC article "Ranging from Swift"
// (Sources/NearbyRuntime/NearbyRuntime.docc/RangingFromSwift.md), compiled and run here.
//
// Each `// article:begin` ... `// article:end` region below is one ```swift block of the article,
// in order; `theArticleShowsThisFilesCode` fails when the two differ (edit both together).
// Only `import`s without @testable: the article uses the libraries' public API alone.

// article:begin
import LowEnergy
import NIProtocol
import NearbyConfig
import NearbyInteraction
import NearbyRuntime
import Ranging
import Simulation
// article:end
import Foundation
import Synchronization
import Testing
import NearbyTestSupport

@Suite("The article Ranging from Swift")
struct RangingFromSwiftArticleTests {
    static let article = "Sources/NearbyRuntime/NearbyRuntime.docc/RangingFromSwift.md"
    static let source = "Tests/NearbyRuntimeTests/RangingFromSwiftArticleTests.swift"

    /// The engine alone: a walk from 5 m to 0.5 m goes far -> mid -> near.
    @Test func theEngineStepTurnsDistancesIntoZones() {
        // article:begin
        var pipeline = RangingPipeline(filter: .default, zones: .standard)
        var zones: [String] = []
        for step in 0..<50 {
            // A walk towards the accessory: 5 m to 0.5 m in 10 s, one sample every 0.2 s.
            let sample = RangeSample(timestamp: Double(step) * 0.2, distance: 5 - Double(step) * 0.09)
            let update = pipeline.process(sample)
            for case .zoneChanged(_, let to?, _) in update.events {
                zones.append("\(to.zoneName)")
            }
        }
        print(zones)  // ["far", "mid", "near"]
        // article:end
        #expect(zones == ["far", "mid", "near"])
    }

    /// The article's ```swift blocks are this file's regions, in order, character for character
    /// (after removing the regions' common indentation).
    @Test func theArticleShowsThisFilesCode() throws {
        let article = try String(contentsOf: PackagePaths.file(Self.article), encoding: .utf8)
        let source = try String(contentsOf: PackagePaths.file(Self.source), encoding: .utf8)
        let blocks = Self.fencedSwiftBlocks(article)
        let regions = Self.regions(source)
        #expect(blocks.count == regions.count && !regions.isEmpty, "\(blocks.count) swift blocks in the article, \(regions.count) regions here")
        for (index, (block, region)) in zip(blocks, regions).enumerated() {
            #expect(block == region, "block \(index + 1) of \(Self.article) differs from region \(index + 1) of \(Self.source):\n\(block)\n---\n\(region)")
        }
    }

    static func fencedSwiftBlocks(_ text: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```swift" {
                current = []
            } else if current != nil, line == "```" {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else if current != nil {
                current!.append(line)
            }
        }
        return blocks
    }

    static func regions(_ text: String) -> [String] {
        var regions: [String] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            if trimmed == "// article:begin" {
                current = []
            } else if trimmed == "// article:end", let lines = current {
                let indent = lines.filter { !$0.isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
                regions.append(lines.map { $0.dropFirst(min(indent, $0.count)) }.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return regions
    }
}

// article:begin
/// Turns the porch light on when an accessory comes within 1.5 m (the zone `near`).
final class PorchLight: RunOutput, Sendable {
    let arrivals = Mutex<[String]>([])

    func handle(_ event: NearbySessionEvent, status: AccessoryStatus?) {
        // Each range sample is an update; the zone changes it caused are in its events.
        guard case .update(let update) = event.kind, let accessory = event.accessory else { return }
        for case .zoneChanged(_, let to?, _) in update.events where to.zoneName == "near" {
            arrivals.withLock { $0.append(accessory.displayName) }
            print("\(accessory.displayName) is at the door: light on")
        }
    }
}
// article:end

extension RangingFromSwiftArticleTests {
    /// The run with the simulator: both accessories walk in and the porch light sees them.
    @Test func theSimulatorStepRangesAndThePorchLightSeesBothArrive() async throws {
        // article:begin
        let settings = try RunSettings(configuration: NearbyConfiguration())
        let demo = try await DemoRanging.start(scenario: .walkIn, accessories: 2, seed: 1, speed: 4, settings: settings)
        let light = PorchLight()
        let run = RangingRun(context: RunContext(accessories: demo.accessories, zones: settings.zones), outputs: [light])
        let consumer = Task { await run.consume(demo.manager.events) }
        await demo.startSessions { print($0) }
        // The walk, then until both are at the door (a busy machine can miss samples) or 60 s more.
        while await !demo.isOver(after: demo.duration + 60),
              await !demo.isOver(after: demo.duration) || light.arrivals.withLock({ Set($0).count }) < 2 {
            try await Task.sleep(for: .milliseconds(100))
        }
        await demo.close()
        await consumer.value
        let summary = await run.finish(interrupted: false)
        for accessory in summary.accessories {
            print("\(accessory.identity.displayName): \(accessory.measured) ranges, \(accessory.zoneChanges) zone changes")
        }
        // article:end
        #expect(summary.accessories.count == 2 && summary.anythingRanged)
        #expect(Set(light.arrivals.withLock { $0 }) == Set(summary.accessories.map(\.identity.displayName)))
    }
}

/// With real hardware: compiled (the API exists as shown), not run (there is no dev kit here).
func rangeWithRealAccessories(targets: [RangeTarget]) async throws -> RunSummary {
    // article:begin
    // ~/.config/nearby/config.toml (zones, filter, hooks), or the defaults when there is none.
    let settings = try RunSettings(configuration: ConfigurationFile.load(path: nil).configuration)
    let live = try await LiveRanging.open(uwb: nil, hci: .bluez(adapter: nil), settings: settings)
    let run = RangingRun(
        context: RunContext(accessories: targets.map(\.identity), zones: settings.zones),
        outputs: [PorchLight()], hooks: settings.hookRunner())
    let consumer = Task { await run.consume(live.manager.events) }
    await live.connect(targets) { print($0) }
    try await Task.sleep(for: .seconds(60))  // or until Ctrl-C
    await live.close()
    await consumer.value
    let summary = await run.finish(interrupted: true)
    // article:end
    return summary
}
