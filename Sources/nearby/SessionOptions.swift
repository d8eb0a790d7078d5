import ArgumentParser
import NearbyInteraction
import Ranging

/// The options `nearby range` and `nearby demo` share: the pipeline (filter, zones) and the
/// output (JSON).
struct SessionOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The smoothing filter: default, kalman, raw, ... (hampel+NAME removes outliers first).", valueName: "name"))
    var filter: String = FilterSpec.default.name

    @Option(help: ArgumentHelp("Zone boundaries in metres, comma-separated, increasing.", valueName: "m,m"))
    var zones: String = "1.5,3"

    @Flag(help: "Print one JSON object per update and per event (keys: see the README).")
    var json = false

    @Flag(name: .long, help: "Log the NI exchange and UCI commands on standard error.")
    var verbose = false

    func validate() throws {
        _ = try filterSpec()
        _ = try zoneMap()
    }

    /// `--filter` parsed.
    func filterSpec() throws -> FilterSpec {
        do {
            return try FilterSpec(name: filter)
        } catch {
            throw ValidationError("--filter: \(error)")
        }
    }

    /// `--zones` parsed (hysteresis 0.2 m, dwell 0.3 s).
    func zoneMap() throws -> ZoneMap {
        try ZoneOption.map(zones)
    }

    /// The session configuration these options describe.
    func sessionConfiguration(timeScale: Double = 1) throws -> AccessorySessionConfiguration {
        AccessorySessionConfiguration(filter: try filterSpec(), zones: try zoneMap(), timeScale: timeScale)
    }
}
