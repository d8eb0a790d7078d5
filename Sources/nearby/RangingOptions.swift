import ArgumentParser
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
    /// - Throws: `ValidationError` naming the flag (`--filter: ...`, `--zones: ...`, `--lost-after ...`).
    func overlay() throws -> NearbyConfiguration {
        do {
            return try NearbyConfiguration(filter: filterName, zones: zones, hysteresis: hysteresis, dwell: dwell, lostAfter: lostAfter)
        } catch {
            throw ValidationError("--\(error)")
        }
    }

    /// `1.5,3` -> `[1.5, 3]`: positive distances in metres (the zone map checks the order).
    /// - Throws: `ValidationError` naming `--zones` and the bad field.
    static func boundaries(_ text: String) throws -> [Double] {
        do {
            return try ZoneMap.boundaries(parsing: text)
        } catch {
            throw ValidationError("--zones: \(error)")
        }
    }
}
