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

    @Option(help: ArgumentHelp("The NI dialect: apple (initialize 0x0A) or android (0xA5).", valueName: "dialect"))
    var dialect = "apple"

    @Option(
        name: .customLong("sts-order"),
        help: ArgumentHelp("How VENDOR_ID and the STS IV go to UCI: vendor-first (AOSP) or reversed (Qorvo); both sides must agree.", valueName: "order"))
    var stsOrder = UWBKeyByteOrder.vendorFirst.description

    @Flag(help: "Print one JSON object per update and per event (keys: see the README).")
    var json = false

    @Flag(name: .long, help: "Log the NI exchange and UCI commands on standard error.")
    var verbose = false

    func validate() throws {
        _ = try filterSpec()
        _ = try zoneMap()
        _ = try niDialect()
        _ = try keyByteOrder()
    }

    /// `--dialect` parsed.
    func niDialect() throws -> NIDialect {
        guard let found = NIDialect.allCases.first(where: { $0.description == dialect.lowercased() }) else {
            throw ValidationError("--dialect must be apple or android, not \"\(dialect)\"")
        }
        return found
    }

    /// `--sts-order` parsed.
    func keyByteOrder() throws -> UWBKeyByteOrder {
        guard let order = UWBKeyByteOrder(name: stsOrder) else {
            throw ValidationError("--sts-order must be vendor-first or reversed, not \"\(stsOrder)\"")
        }
        return order
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
        AccessorySessionConfiguration(
            dialect: try niDialect(), planning: SessionPlanningOptions(keyByteOrder: try keyByteOrder()), filter: try filterSpec(),
            zones: try zoneMap(), timeScale: timeScale)
    }
}
