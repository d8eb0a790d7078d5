import Foundation
import Hooks

/// A scratch directory per test, removed by the caller when done.
struct Scratch {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("nearby-hooks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    func read(_ name: String) -> String? { try? String(contentsOfFile: path(name), encoding: .utf8) }

    func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: path(name)) }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

extension HookEvent {
    /// An event for tests.
    static func test(
        _ kind: HookTrigger, zone: String? = nil, previous: String? = nil, accessory: String = "tag",
        id: String = "F0:12:34:56:78:9A", distance: Double? = 1.25, timestamp: Double = 1_738_326_896.789
    ) -> HookEvent {
        HookEvent(
            kind: kind, zone: zone, previousZone: previous, accessoryName: accessory, accessoryID: id, distance: distance,
            timestamp: timestamp)
    }
}

/// Collects every outcome of a runner until it finishes.
func collect(_ stream: AsyncStream<HookOutcome>) async -> [HookOutcome] {
    var result: [HookOutcome] = []
    for await outcome in stream { result.append(outcome) }
    return result
}

/// Parses `env -0` output into a dictionary.
func parseEnvironment(_ text: String) -> [String: String] {
    var result: [String: String] = [:]
    for entry in text.split(separator: "\0", omittingEmptySubsequences: true) {
        guard let equals = entry.firstIndex(of: "=") else { continue }
        result[String(entry[..<equals])] = String(entry[entry.index(after: equals)...])
    }
    return result
}

func seconds(_ duration: Duration) -> Double {
    let (whole, fraction) = duration.components
    return Double(whole) + Double(fraction) / 1e18
}
