import ArgumentParser
import Foundation
import NearbyConfig
import Ranging

/// The engine flags of any command that ranges (`replay`, `range`, `demo`): filter, zones,
/// hysteresis, dwell, lost-after. Add `@OptionGroup var rangingOptions: RangingOptions` and merge
/// ``overlay()`` over the configuration file: `file.overridden(by: try rangingOptions.overlay())`.
/// Unset flags stay `nil`, so the file's values and then the defaults apply.
struct RangingOptions: ParsableArguments {
    @Option(
        name: .customLong("filter"),
        help: ArgumentHelp("Smoothing filter (default: the config file's, else \(FilterSpec.default.name)).", valueName: "name"))
    var filterName: String?

    @Option(help: ArgumentHelp("Zone boundaries in metres, comma-separated, increasing (default 1.5,3).", valueName: "m,m"))
    var zones: String?

    @Option(help: ArgumentHelp("Width of the hysteresis band around each zone boundary, metres (default 0.2).", valueName: "m"))
    var hysteresis: Double?

    @Option(help: ArgumentHelp("Minimum dwell before a zone change is reported, seconds (default 0.3).", valueName: "s"))
    var dwell: Double?

    @Option(
        name: .customLong("lost-after"),
        help: ArgumentHelp("Silence after which the accessory is lost, seconds (default 2).", valueName: "s"))
    var lostAfter: Double?

    func validate() throws {
        _ = try overlay()
    }

    /// The flags as a configuration overlay (only `zones` and `filter` are set).
    /// - Throws: `ValidationError` naming the flag.
    func overlay() throws -> NearbyConfiguration {
        var flags = NearbyConfiguration()
        if let filterName {
            do {
                flags.filter.spec = try FilterSpec(name: filterName)
            } catch {
                throw ValidationError("--filter: \(error)")
            }
        }
        if let zones { flags.zones.boundaries = try Self.boundaries(zones) }
        flags.zones.hysteresis = hysteresis
        flags.zones.dwell = dwell
        if let lostAfter {
            guard lostAfter > 0, lostAfter.isFinite else { throw ValidationError("--lost-after must be > 0 seconds, not \(lostAfter)") }
            flags.zones.lostAfter = lostAfter
        }
        return flags
    }

    /// `1.5,3` -> `[1.5, 3]`: positive distances in metres (the zone map checks the order).
    static func boundaries(_ text: String) throws -> [Double] {
        try text.split(separator: ",", omittingEmptySubsequences: false).map { field in
            let value = field.trimmingCharacters(in: .whitespaces)
            guard let number = Double(value), number.isFinite, number > 0 else {
                throw ValidationError("--zones: '\(value)' is not a distance in metres; write increasing boundaries like 1.5,3")
            }
            return number
        }
    }
}
