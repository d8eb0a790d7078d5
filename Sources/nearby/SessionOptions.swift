import ArgumentParser
import Hooks
import Logging
import NearbyRuntime
import NearbyConfig
import NearbyInteraction
import NearbyTerminal
import Ranging
import NIProtocol

/// The options `nearby range` and `nearby demo` share: the configuration file (`--config`), the
/// engine (`--filter`, `--zones`, `--hysteresis`, `--dwell`, `--lost-after`), zone-trigger hooks
/// (`--on-enter ZONE -- CMD ...`), logging (`--log-level`), the NI dialect and key order, the
/// output (`--json`), the web view (`--web`) and MQTT (`--mqtt`, `--mqtt-host`). Flags win over
/// the file, the file over the defaults.
struct SessionOptions: ParsableArguments {
    @OptionGroup var config: ConfigOptions
    @OptionGroup var ranging: RangingOptions
    @OptionGroup var hooks: HookTriggerOptions
    @OptionGroup var logging: LogOptions
    @OptionGroup var web: WebOptions
    @OptionGroup var mqtt: MQTTOptions

    @Option(help: ArgumentHelp("The NI dialect: apple (initialize 0x0A) or android (0xA5).", valueName: "dialect"))
    var dialect = "apple"

    @Option(
        name: .customLong("sts-order"),
        help: ArgumentHelp(
            "How VENDOR_ID and the STS IV go to UCI: vendor-first (4C 00 + IV, as AOSP and androidx) or vendor-swapped (00 4C + IV); both sides must agree. The old spelling reversed (or qorvo) now means vendor-swapped.",
            valueName: "order"))
    var stsOrder = UWBKeyByteOrder.vendorFirst.description

    @Flag(help: "Print one JSON object per update and per event (keys: specs/cli.md).")
    var json = false

    @Flag(name: .long, help: "Log the NI exchange and UCI commands on standard error (--log-level debug).")
    var verbose = false

    func validate() throws {
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
            throw ValidationError("--sts-order must be vendor-first or vendor-swapped, not \"\(stsOrder)\"")
        }
        return order
    }

    /// The settings in effect: the configuration file overridden by every flag that was given
    /// (`transports` are the command's own `--hci` / `--uwb`, `nil` when not given). Bootstraps
    /// logging at the resulting level and checks the hooks' zones.
    /// - Throws: `ExitCode` 78 for an invalid configuration file (after printing every problem),
    ///   `ValidationError` for invalid flags or a hook naming an unknown zone.
    /// - Parameter hookCommand: the argv given after `--` (the hook flags' command).
    func settings(transports: TransportSettings = TransportSettings(), hookCommand: [String]) throws -> NearbyConfiguration {
        let definitions: [HookDefinition]?
        do {
            definitions = try hooks.definitions(command: hookCommand)
        } catch {
            Console.error("error: \(error)")
            throw NearbyExit.usage
        }
        let file = try config.load()
        var flags = try ranging.overlay()
        flags.hooks = definitions
        flags.output.logLevel = logging.logLevel ?? (verbose ? .debug : nil)
        if json { flags.output.json = true }
        flags.transports = transports
        let settings = file.configuration.overridden(by: flags)
        logging.bootstrap(output: settings.output)
        do {
            _ = try settings.zoneMap()
        } catch {
            throw ValidationError(ranging.zones != nil ? "--zones: \(error)" : "configuration file, [zones]: \(error)")
        }
        do {
            try settings.validateHooks()
        } catch {
            throw ValidationError("\(error)")
        }
        if file.configuration.hooks != nil, hooks.hasTriggers {
            Logger(label: "nearby").notice("hooks given on the command line replace the configuration file's [[hook]]s")
        }
        return settings
    }

    /// The run's settings for `configuration` (the effective one from ``settings(transports:hookCommand:)``):
    /// dialect and key order from the flags; filter, zones, lost-after, retry policy and hooks
    /// from `configuration`.
    /// - Parameter timeScale: simulated seconds per real second (`nearby demo --speed`).
    /// - Throws: `ValidationError` naming the section for invalid zones, retry policy or hooks.
    func runSettings(_ configuration: NearbyConfiguration, timeScale: Double = 1) throws -> RunSettings {
        do {
            return try RunSettings(configuration: configuration, dialect: try niDialect(), keyByteOrder: try keyByteOrder(), timeScale: timeScale)
        } catch let error as RunSettingsError {
            throw ValidationError(error.section == "retry" ? "configuration file: \(error)" : "\(error)")
        }
    }
}
