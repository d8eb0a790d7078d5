#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Hooks
import MQTT
import NearbySupport
import Ranging
import TOMLKit

/// Finds, reads and parses the configuration file (`specs/config.md`).
///
/// Location: `--config FILE` if given; else `$XDG_CONFIG_HOME/nearby/config.toml`; else
/// `~/.config/nearby/config.toml`. A missing file at the default location is not an error (all
/// defaults); a missing file named explicitly is.
public enum ConfigurationFile {
    /// The top-level sections.
    public static let sections = ["zones", "filter", "hook", "transports", "retry", "output", "web", "mqtt", "accessory", "house"]

    /// The default path from `environment` (`XDG_CONFIG_HOME`, else `HOME`); `nil` if neither
    /// is set.
    public static func defaultPath(environment: [String: String]) -> String? {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            return xdg + "/nearby/config.toml"
        }
        if let home = environment["HOME"], !home.isEmpty {
            return home + "/.config/nearby/config.toml"
        }
        return nil
    }

    /// The default path for this process's environment.
    public static func defaultPath() -> String? {
        var environment: [String: String] = [:]
        for name in ["XDG_CONFIG_HOME", "HOME"] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return defaultPath(environment: environment)
    }

    /// Loads the configuration.
    /// - Parameters:
    ///   - path: an explicit file (must exist), or `nil` for the default location (may be absent).
    ///   - validators: checks of the transport specs (default: syntax only).
    /// - Returns: the configuration and the path it came from (`nil`: no file, all defaults).
    /// - Throws: ``ConfigError`` with every problem (a missing explicit file, unreadable file,
    ///   syntax errors, unknown keys, wrong types, invalid values), each with its line.
    public static func load(
        path: String?, validators: TransportValidators = .syntax
    ) throws(ConfigError) -> (configuration: NearbyConfiguration, path: String?) {
        let explicit = path != nil
        guard let path = path ?? defaultPath() else { return (NearbyConfiguration(), nil) }
        let bytes: [UInt8]?
        do {
            bytes = try AtomicFile.read(path)
        } catch {
            throw ConfigError(source: path, issues: [ConfigIssue(line: 1, key: "", message: "\(error)")])
        }
        guard let bytes else {
            if explicit {
                throw ConfigError(
                    source: path,
                    issues: [ConfigIssue(line: 1, key: "", message: "no such file; create it (`nearby config example > \(path)`) or fix the path")])
            }
            return (NearbyConfiguration(), nil)
        }
        return (try parse(bytes: bytes, source: path, validators: validators), path)
    }

    /// Parses file content (UTF-8).
    /// - Throws: ``ConfigError`` (see ``load(path:validators:)``).
    public static func parse(bytes: [UInt8], source: String, validators: TransportValidators = .syntax) throws(ConfigError) -> NearbyConfiguration {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            // The line of the first invalid byte.
            var line = 1
            var iterator = bytes.makeIterator()
            var parser = Unicode.UTF8.ForwardParser()
            scan: while true {
                switch parser.parseScalar(from: &iterator) {
                case .valid(let scalar): if scalar.count == 1 && scalar.first == 0x0A { line += 1 }
                case .error, .emptyInput: break scan
                }
            }
            throw ConfigError(source: source, issues: [ConfigIssue(line: line, key: "", message: "the file is not valid UTF-8 text (first bad byte on this line); save it as UTF-8")])
        }
        return try parse(text, source: source, validators: validators)
    }

    /// Parses TOML text.
    /// - Parameters:
    ///   - text: the file's content.
    ///   - source: the file name for messages (`-` for standard input).
    ///   - validators: checks of the transport specs.
    /// - Throws: ``ConfigError`` listing every problem with its line and key.
    public static func parse(_ text: String, source: String, validators: TransportValidators = .syntax) throws(ConfigError) -> NearbyConfiguration {
        if let problem = TOMLPrecheck.firstProblem(in: text) {
            // toml++ asserts on these instead of reporting them (found by fuzzing, specs/fuzzing.md).
            throw ConfigError(
                source: source, issues: [ConfigIssue(line: problem.line, column: problem.column, key: "", message: "TOML syntax error: \(problem.message)")])
        }
        let root: TOMLTable
        do {
            root = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ConfigError(
                source: source,
                issues: [ConfigIssue(line: error.source.begin.line, column: error.source.begin.column, key: "", message: "TOML syntax error: \(error.description)")])
        } catch {
            throw ConfigError(source: source, issues: [ConfigIssue(line: 1, key: "", message: "TOML syntax error: \(error)")])
        }
        let decoder = ConfigDecoder(locator: KeyLocator(text: text))
        var configuration = NearbyConfiguration()
        decoder.rejectUnknownKeys(root, at: "", allowed: sections)
        if let table = decoder.table(root, "zones", at: "") { configuration.zones = zones(table, decoder) }
        if let table = decoder.table(root, "filter", at: "") { configuration.filter = filter(table, decoder) }
        if let table = decoder.table(root, "transports", at: "") {
            configuration.transports = transports(table, decoder, validators)
        }
        if let table = decoder.table(root, "retry", at: "") { configuration.retry = retry(table, decoder) }
        if let table = decoder.table(root, "output", at: "") { configuration.output = output(table, decoder) }
        if let table = decoder.table(root, "web", at: "") { configuration.web = web(table, decoder) }
        if let table = decoder.table(root, "mqtt", at: "") { configuration.mqtt = mqtt(table, decoder) }
        if let table = decoder.table(root, "accessory", at: "") { configuration.accessory = accessory(table, decoder) }
        if let table = decoder.table(root, "house", at: "") { configuration.house = house(table, decoder) }
        let zoneNames = (try? configuration.zoneMap())?.zones.map(\.name)
        if let value = root["hook"] {
            if let array = value.array {
                configuration.hooks = hooks(array, decoder, zoneNames: zoneNames)
            } else {
                decoder.issue("hook", "expected an array of tables ([[hook]] sections), found \(ConfigDecoder.describe(value))")
            }
        }
        guard decoder.issues.isEmpty else { throw ConfigError(source: source, issues: decoder.issues) }
        return configuration
    }

    // MARK: Sections

    private static func zones(_ table: TOMLTable, _ d: ConfigDecoder) -> ZoneSettings {
        let path = "zones"
        d.rejectUnknownKeys(table, at: path, allowed: ["boundaries", "names", "hysteresis", "dwell", "lost_after"])
        var settings = ZoneSettings()
        settings.boundaries = d.numbers(table, "boundaries", at: path, expected: "an array of distances in metres, e.g. [1.5, 3.0]")
        settings.names = d.strings(table, "names", at: path, expected: "an array of zone names, e.g. [\"near\", \"mid\", \"far\"]")
        settings.hysteresis = d.number(table, "hysteresis", at: path, expected: "metres ≥ 0, e.g. 0.2") { $0 >= 0 }
        settings.dwell = d.number(table, "dwell", at: path, expected: "seconds ≥ 0, e.g. 0.3") { $0 >= 0 }
        settings.lostAfter = d.number(table, "lost_after", at: path, expected: "seconds > 0, e.g. 2") { $0 > 0 }
        if let names = settings.names {
            if let empty = names.firstIndex(where: \.isEmpty) {
                d.issue("zones.names[\(empty + 1)]", "a zone name is empty")
                settings.names = nil
            } else if names.contains(where: { $0 == "*" }) {
                d.issue("zones.names", "'*' means any zone in hooks; choose another name")
                settings.names = nil
            }
        }
        if let boundaries = settings.boundaries, boundaries.isEmpty {
            d.issue("zones.boundaries", "expected at least one boundary in metres, e.g. [1.5, 3.0]")
            settings.boundaries = nil
        }
        do {
            _ = try settings.zoneMap()
        } catch {
            let key = settings.names != nil && "\(error)".contains("names") ? "zones.names" : "zones.boundaries"
            d.issue(table["boundaries"] != nil || key == "zones.names" ? key : "zones", error.description)
        }
        return settings
    }

    private static func filter(_ table: TOMLTable, _ d: ConfigDecoder) -> FilterSettings {
        let path = "filter"
        d.rejectUnknownKeys(table, at: path, allowed: ["name", "imm", "kalman", "one_euro", "hampel", "median3", "ma10", "ema"])
        var settings = FilterSettings()
        if let name = d.string(table, "name", at: path, expected: "a filter name such as \"imm\"") {
            do {
                settings.spec = try FilterSpec(name: name)
            } catch {
                d.issue("filter.name", error.description)
            }
        }
        if let imm = d.table(table, "imm", at: path) {
            let p = "filter.imm"
            d.rejectUnknownKeys(
                imm, at: p,
                allowed: [
                    "measurement_noise", "max_measurement_noise", "noise_time", "still_noise", "moving_noise", "still_to_moving",
                    "moving_to_still", "initial_still_probability", "nlos_factor", "min_weight", "outlier_probability",
                    "min_outlier_probability", "max_outlier_probability", "outlier_time", "outlier_spread", "relock_time",
                    "relock_spread", "initial_rate_noise",
                ], removed: ["gate", "relock_count"])
            // The gate of the IMM before issue 27, replaced by its outlier model (specs/filters.md §2.7).
            for (key, instead) in [("gate", "outlier_probability and outlier_spread"), ("relock_count", "relock_time (seconds)")]
            where imm.keys.contains(key) {
                d.issue("filter.imm.\(key)", "no longer used: imm judges outliers by probability, in seconds and metres; remove it, and set \(instead) instead if you need to")
            }
            let standard = IMMFilter.Parameters.standard(for: .distance)
            let measurementNoise =
                d.number(imm, "measurement_noise", at: p, expected: "metres > 0 (smallest σ of one measurement), e.g. 0.05") { $0 > 0 }
                ?? standard.measurementNoise
            let maximumNoise = d.number(
                imm, "max_measurement_noise", at: p, expected: "metres > 0 (largest σ the noise estimate may reach), e.g. 0.1"
            ) { $0 > 0 }
            if let maximumNoise, maximumNoise < measurementNoise {
                d.issue(
                    "filter.imm.max_measurement_noise",
                    "\(maximumNoise) is below measurement_noise \(measurementNoise); set it ≥ measurement_noise (equal = fixed noise)")
            }
            let outlierProbability =
                d.number(imm, "outlier_probability", at: p, expected: "0 ≤ p < 1 (at start; learned afterwards), e.g. 0.05") {
                    $0 >= 0 && $0 < 1
                } ?? standard.outlierProbability
            let minimumOutliers = d.number(
                imm, "min_outlier_probability", at: p, expected: "0 ≤ p ≤ outlier_probability, e.g. 0.02") { $0 >= 0 && $0 < 1 }
            let maximumOutliers = d.number(
                imm, "max_outlier_probability", at: p, expected: "outlier_probability ≤ p < 1, e.g. 0.1") { $0 >= 0 && $0 < 1 }
            if let minimumOutliers, minimumOutliers > outlierProbability {
                d.issue(
                    "filter.imm.min_outlier_probability",
                    "\(minimumOutliers) is above outlier_probability \(outlierProbability); set it ≤ outlier_probability")
            }
            if let maximumOutliers, maximumOutliers < outlierProbability {
                d.issue(
                    "filter.imm.max_outlier_probability",
                    "\(maximumOutliers) is below outlier_probability \(outlierProbability); set it ≥ outlier_probability")
            }
            settings.imm = IMMFilter.Parameters(
                measurementNoise: measurementNoise,
                maximumNoise: maximumNoise ?? max(standard.maximumNoise, measurementNoise),
                noiseTimeConstant: d.number(imm, "noise_time", at: p, expected: "seconds > 0, e.g. 3") { $0 > 0 }
                    ?? standard.noiseTimeConstant,
                stillNoise: d.number(imm, "still_noise", at: p, expected: "m²/s ≥ 0, e.g. 0.00001") { $0 >= 0 } ?? standard.stillNoise,
                movingNoise: d.number(imm, "moving_noise", at: p, expected: "m²/s³ ≥ 0, e.g. 1") { $0 >= 0 } ?? standard.movingNoise,
                stillToMoving: d.number(imm, "still_to_moving", at: p, expected: "a rate > 0 per second, e.g. 0.1") { $0 > 0 }
                    ?? standard.stillToMoving,
                movingToStill: d.number(imm, "moving_to_still", at: p, expected: "a rate > 0 per second, e.g. 0.3") { $0 > 0 }
                    ?? standard.movingToStill,
                initialStillProbability: d.number(imm, "initial_still_probability", at: p, expected: "0 < p < 1, e.g. 0.9") { $0 > 0 && $0 < 1 }
                    ?? standard.initialStillProbability,
                nonLineOfSightFactor: d.number(imm, "nlos_factor", at: p, expected: "a factor ≥ 1, e.g. 3") { $0 >= 1 }
                    ?? standard.nonLineOfSightFactor,
                minimumWeight: d.number(imm, "min_weight", at: p, expected: "0 < weight ≤ 1, e.g. 0.1") { $0 > 0 && $0 <= 1 }
                    ?? standard.minimumWeight,
                outlierProbability: outlierProbability,
                minimumOutlierProbability: minimumOutliers ?? min(standard.minimumOutlierProbability, outlierProbability),
                maximumOutlierProbability: maximumOutliers ?? max(standard.maximumOutlierProbability, outlierProbability),
                outlierTimeConstant: d.number(imm, "outlier_time", at: p, expected: "seconds ≥ 0 (0 = fixed), e.g. 20") { $0 >= 0 }
                    ?? standard.outlierTimeConstant,
                outlierSpread: d.number(imm, "outlier_spread", at: p, expected: "metres > 0, e.g. 2") { $0 > 0 } ?? standard.outlierSpread,
                relockTime: d.number(imm, "relock_time", at: p, expected: "seconds ≥ 0, e.g. 0.5") { $0 >= 0 } ?? standard.relockTime,
                relockSpread: d.number(imm, "relock_spread", at: p, expected: "metres ≥ 0, e.g. 0.5") { $0 >= 0 } ?? standard.relockSpread,
                initialRateNoise: d.number(imm, "initial_rate_noise", at: p, expected: "m/s > 0, e.g. 1") { $0 > 0 }
                    ?? standard.initialRateNoise)
        }
        if let kalman = d.table(table, "kalman", at: path) {
            let p = "filter.kalman"
            d.rejectUnknownKeys(
                kalman, at: p,
                allowed: ["measurement_noise", "process_noise", "nlos_factor", "min_weight", "gate", "relock_count", "relock_spread", "initial_rate_noise"])
            let standard = KalmanFilter.Parameters.standard(for: .distance)
            settings.kalman = KalmanFilter.Parameters(
                measurementNoise: d.number(kalman, "measurement_noise", at: p, expected: "metres > 0 (σ of one measurement), e.g. 0.05") { $0 > 0 }
                    ?? standard.measurementNoise,
                processNoise: d.number(kalman, "process_noise", at: p, expected: "m²/s³ ≥ 0, e.g. 0.1") { $0 >= 0 } ?? standard.processNoise,
                nonLineOfSightFactor: d.number(kalman, "nlos_factor", at: p, expected: "a factor ≥ 1, e.g. 3") { $0 >= 1 }
                    ?? standard.nonLineOfSightFactor,
                minimumWeight: d.number(kalman, "min_weight", at: p, expected: "0 < weight ≤ 1, e.g. 0.1") { $0 > 0 && $0 <= 1 }
                    ?? standard.minimumWeight,
                gate: d.number(kalman, "gate", at: p, expected: "standard deviations > 0, e.g. 4") { $0 > 0 } ?? standard.gate,
                relockCount: d.integer(kalman, "relock_count", at: p, expected: "an integer ≥ 1, e.g. 4") { $0 >= 1 } ?? standard.relockCount,
                relockSpread: d.number(kalman, "relock_spread", at: p, expected: "metres ≥ 0, e.g. 0.5") { $0 >= 0 } ?? standard.relockSpread,
                initialRateNoise: d.number(kalman, "initial_rate_noise", at: p, expected: "m/s > 0, e.g. 1") { $0 > 0 }
                    ?? standard.initialRateNoise)
        }
        if let oneEuro = d.table(table, "one_euro", at: path) {
            let p = "filter.one_euro"
            d.rejectUnknownKeys(oneEuro, at: p, allowed: ["min_cutoff", "beta", "derivative_cutoff"])
            let standard = OneEuroFilter.Parameters.standard(for: .distance)
            settings.oneEuro = OneEuroFilter.Parameters(
                minimumCutoff: d.number(oneEuro, "min_cutoff", at: p, expected: "Hz > 0, e.g. 0.2") { $0 > 0 } ?? standard.minimumCutoff,
                beta: d.number(oneEuro, "beta", at: p, expected: "1/m ≥ 0, e.g. 3") { $0 >= 0 } ?? standard.beta,
                derivativeCutoff: d.number(oneEuro, "derivative_cutoff", at: p, expected: "Hz > 0, e.g. 1") { $0 > 0 }
                    ?? standard.derivativeCutoff,
                frequency: standard.frequency)
        }
        if let hampel = d.table(table, "hampel", at: path) {
            let p = "filter.hampel"
            d.rejectUnknownKeys(hampel, at: p, allowed: ["window", "threshold", "min_deviation"])
            let standard = HampelFilter.Parameters.standard(for: .distance)
            settings.hampel = HampelFilter.Parameters(
                windowSize: d.integer(hampel, "window", at: p, expected: "samples, 3 ... 255, e.g. 7") { (3...255).contains($0) } ?? standard.windowSize,
                threshold: d.number(hampel, "threshold", at: p, expected: "standard deviations > 0, e.g. 3") { $0 > 0 } ?? standard.threshold,
                minimumDeviation: d.number(hampel, "min_deviation", at: p, expected: "metres ≥ 0, e.g. 0.1") { $0 >= 0 }
                    ?? standard.minimumDeviation)
        }
        if let median = d.table(table, "median3", at: path) {
            let p = "filter.median3"
            d.rejectUnknownKeys(median, at: p, allowed: ["window", "inlier_fraction"])
            let standard = MedianAverageFilter.Parameters.standard(for: .distance)
            settings.medianAverage = MedianAverageFilter.Parameters(
                windowSize: d.integer(median, "window", at: p, expected: "samples, 1 ... 255, e.g. 3") { (1...255).contains($0) } ?? standard.windowSize,
                inlierFraction: d.number(median, "inlier_fraction", at: p, expected: "0 ... 1 (0 = median, 1 = mean)") { (0...1).contains($0) }
                    ?? standard.inlierFraction)
        }
        if let average = d.table(table, "ma10", at: path) {
            let p = "filter.ma10"
            d.rejectUnknownKeys(average, at: p, allowed: ["window"])
            let standard = MovingAverageFilter.Parameters.standard(for: .distance)
            settings.movingAverage = MovingAverageFilter.Parameters(
                windowSize: d.integer(average, "window", at: p, expected: "samples, 1 ... 255, e.g. 10") { (1...255).contains($0) } ?? standard.windowSize)
        }
        if let ema = d.table(table, "ema", at: path) {
            let p = "filter.ema"
            d.rejectUnknownKeys(ema, at: p, allowed: ["periods"])
            let standard = ExponentialMovingAverageFilter.Parameters.standard(for: .distance)
            settings.exponential = ExponentialMovingAverageFilter.Parameters(
                periods: d.integer(ema, "periods", at: p, expected: "an integer ≥ 1, e.g. 15") { $0 >= 1 } ?? standard.periods)
        }
        return settings
    }

    private static func hooks(_ array: TOMLArray, _ d: ConfigDecoder, zoneNames: [String]?) -> [HookDefinition] {
        var result: [HookDefinition] = []
        for (offset, element) in array.enumerated() {
            let path = "hook[\(offset + 1)]"
            guard let table = element.table else {
                d.issue(path, "expected a [[hook]] table, found \(ConfigDecoder.describe(element))")
                continue
            }
            d.rejectUnknownKeys(table, at: path, allowed: ["name", "on", "zone", "accessory", "run", "timeout", "cooldown"])
            let triggers = HookTrigger.allCases.map(\.rawValue).joined(separator: ", ")
            var trigger: HookTrigger?
            if let on = d.string(table, "on", at: path, expected: "one of \(triggers)") {
                trigger = HookTrigger(rawValue: on)
                if trigger == nil { d.issue(path + ".on", "'\(on)' is not an event; use one of \(triggers)") }
            } else if table["on"] == nil {
                d.issue(path, "missing key 'on' (the event: \(triggers))")
            }
            let name = d.string(table, "name", at: path)
            let zone = d.string(table, "zone", at: path, expected: "a zone name or \"*\"")
            let accessory = d.string(table, "accessory", at: path, expected: "an accessory name or \"*\"")
            let run = d.strings(table, "run", at: path, expected: "an argv array of strings, e.g. [\"/usr/bin/logger\", \"nearby\"]")
            if table["run"] == nil { d.issue(path, "missing key 'run' (the command as an argv array, e.g. [\"/usr/bin/logger\", \"nearby\"])") }
            let timeout = d.number(table, "timeout", at: path, expected: "seconds > 0, e.g. 10") { $0 > 0 && $0 <= HookDefinition.maximumSeconds }
            let cooldown = d.number(table, "cooldown", at: path, expected: "seconds ≥ 0, e.g. 30") { $0 >= 0 && $0 <= HookDefinition.maximumSeconds }
            // The zone is checked even when other keys are wrong, so one pass reports everything.
            var zoneIsValid = true
            if let zone, let zoneNames, trigger?.hasZone != false {
                do {
                    try HookDefinition.validate(zone: zone, zoneNames: zoneNames)
                } catch {
                    d.issue(path + ".zone", error.message)
                    zoneIsValid = false
                }
            }
            guard let trigger, let run, zoneIsValid else { continue }
            do {
                result.append(
                    try HookDefinition(
                        name: name, on: trigger, zone: zone, accessory: accessory, run: run,
                        timeout: timeout ?? HookDefinition.defaultTimeout, cooldown: cooldown ?? 0))
            } catch {
                d.issue(path + "." + error.field, error.message)
            }
        }
        return result
    }

    private static func transports(_ table: TOMLTable, _ d: ConfigDecoder, _ validators: TransportValidators) -> TransportSettings {
        let path = "transports"
        d.rejectUnknownKeys(table, at: path, allowed: ["hci", "uwb", "hci_legacy", "own_address"])
        var settings = TransportSettings()
        if let hci = d.string(table, "hci", at: path, expected: "a controller spec such as \"hci:0\"") {
            if let problem = validators.hci(hci) { d.issue("transports.hci", problem) } else { settings.hci = hci }
        }
        if let uwb = d.string(table, "uwb", at: path, expected: "a UWB device spec such as \"usb:1915:520f\"") {
            if let problem = validators.uwb(uwb) { d.issue("transports.uwb", problem) } else { settings.uwb = uwb }
        }
        settings.hciLegacy = d.bool(table, "hci_legacy", at: path)
        if let own = d.string(table, "own_address", at: path, expected: "\"random\" or \"public\"") {
            if own == "random" || own == "public" {
                settings.ownAddress = own
            } else {
                d.issue("transports.own_address", "'\(own)' is not an own address kind; write \"random\" (stored per controller) or \"public\"")
            }
        }
        return settings
    }

    private static func retry(_ table: TOMLTable, _ d: ConfigDecoder) -> RetrySettings {
        let path = "retry"
        d.rejectUnknownKeys(table, at: path, allowed: ["max_attempts", "initial_backoff", "max_backoff", "ranging_timeout"])
        var settings = RetrySettings()
        settings.maxAttempts = d.integer(table, "max_attempts", at: path, expected: "an integer ≥ 0 (0 = never restart)") { $0 >= 0 }
        settings.initialBackoff = d.number(table, "initial_backoff", at: path, expected: "seconds > 0, e.g. 0.5") { $0 > 0 }
        settings.maxBackoff = d.number(table, "max_backoff", at: path, expected: "seconds > 0, e.g. 30") { $0 > 0 }
        if table.keys.contains("ranging_timeout") {
            d.issue(
                "retry.ranging_timeout",
                "no longer used: a session restarts when its accessory is lost (no usable range for [zones] lost_after seconds); remove it, and set lost_after instead if you need a longer silence")
        }
        if let initial = settings.initialBackoff, let maximum = settings.maxBackoff, maximum < initial {
            d.issue(
                "retry.max_backoff",
                "\(ConfigDecoder.format(maximum)) s is below initial_backoff \(ConfigDecoder.format(initial)) s; make it at least as large")
        }
        return settings
    }

    private static func output(_ table: TOMLTable, _ d: ConfigDecoder) -> OutputSettings {
        let path = "output"
        d.rejectUnknownKeys(table, at: path, allowed: ["json", "color", "log_level"])
        var settings = OutputSettings()
        settings.json = d.bool(table, "json", at: path)
        let colors = ColorMode.allCases.map(\.rawValue).joined(separator: ", ")
        if let color = d.string(table, "color", at: path, expected: "one of \(colors)") {
            settings.color = ColorMode(rawValue: color)
            if settings.color == nil { d.issue("output.color", "'\(color)' is not a colour mode; use one of \(colors)") }
        }
        let levels = LogLevelName.allCases.map(\.rawValue).joined(separator: ", ")
        if let level = d.string(table, "log_level", at: path, expected: "one of \(levels)") {
            settings.logLevel = LogLevelName(rawValue: level)
            if settings.logLevel == nil { d.issue("output.log_level", "'\(level)' is not a log level; use one of \(levels)") }
        }
        return settings
    }

    private static func accessory(_ table: TOMLTable, _ d: ConfigDecoder) -> AccessoryRoleFileSettings {
        let path = "accessory"
        d.rejectUnknownKeys(table, at: path, allowed: ["name", "services", "config_version", "role", "mac", "max_phones", "advertising_interval_ms"])
        var settings = AccessoryRoleFileSettings()
        if let name = d.string(table, "name", at: path, expected: "the name phones see, e.g. \"front door\"") {
            if name.isEmpty || name.utf8.count > 248 { d.issue("accessory.name", "the name must be 1-248 bytes, not \(name.utf8.count)") } else { settings.name = name }
        }
        if let services = d.strings(table, "services", at: path, expected: "an array of qnis, nus, apple, e.g. [\"qnis\"]") {
            if let unknown = services.first(where: { !AccessoryRoleFileSettings.serviceNames.contains($0) }) {
                d.issue("accessory.services", "'\(unknown)' is not a service; write qnis (Qorvo's app), nus (Apple's sample) or apple (Apple's NI service)")
            } else if services.isEmpty {
                d.issue("accessory.services", "give at least one service, e.g. [\"qnis\"]")
            } else {
                settings.services = services
            }
        }
        if let version = d.string(table, "config_version", at: path, expected: "\"1.0\" or \"1.1\"") {
            if version == "1.0" || version == "1.1" { settings.configVersion = version } else {
                d.issue("accessory.config_version", "'\(version)' is not a UWB config data version; write \"1.0\" or \"1.1\"")
            }
        }
        if let role = d.string(table, "role", at: path, expected: "\"responder\" or \"initiator\"") {
            if role == "responder" || role == "initiator" { settings.role = role } else {
                d.issue("accessory.role", "'\(role)' is not a role; write \"responder\" (the default) or \"initiator\"")
            }
        }
        if let mac = d.string(table, "mac", at: path, expected: "a UWB short address in hex, e.g. \"0A0B\"") {
            if let address = AccessoryRoleFileSettings.address(mac) { settings.mac = address } else {
                d.issue("accessory.mac", "'\(mac)' is not a UWB short address; write 1-4 hex digits, 0001-FFFE, e.g. \"0A0B\"")
            }
        }
        settings.maxPhones = d.integer(table, "max_phones", at: path, expected: "1-8") { (1...8).contains($0) }
        settings.advertisingIntervalMilliseconds = d.number(table, "advertising_interval_ms", at: path, expected: "milliseconds, 20-10240") {
            (20...10_240).contains($0)
        }
        return settings
    }

    private static func web(_ table: TOMLTable, _ d: ConfigDecoder) -> WebViewSettings {
        d.rejectUnknownKeys(table, at: "web", allowed: ["token"])
        return WebViewSettings(token: d.string(table, "token", at: "web", expected: "a token string, e.g. the output of `openssl rand -hex 16`"))
    }

    private static func mqtt(_ table: TOMLTable, _ d: ConfigDecoder) -> MQTTSettings {
        let path = "mqtt"
        d.rejectUnknownKeys(
            table, at: path,
            allowed: [
                "url", "client_id", "host_name", "topic_prefix", "discovery", "discovery_prefix", "distance_rate", "distance_step",
                "protocol", "keepalive", "username", "password", "ca_file", "cert_file", "key_file", "queue", "reconnect_max",
                "heartbeat", "range_rate",
            ])
        var settings = MQTTSettings()
        if let url = d.string(table, "url", at: path, expected: "a broker URL such as \"mqtt://nearby@192.168.1.10\"") {
            do {
                settings.url = try MQTTBrokerURL(parsing: url)
            } catch {
                d.issue("mqtt.url", error.description)
            }
        }
        func name(_ key: String, _ expected: String) -> String? {
            guard let value = d.string(table, key, at: path, expected: expected) else { return nil }
            guard !value.isEmpty, !value.contains(where: { $0 == "+" || $0 == "#" || $0 == "/" }) else {
                d.issue("mqtt." + key, "'\(value)' cannot be a topic level: it must be non-empty, without '/', '+' or '#'")
                return nil
            }
            return value
        }
        settings.clientID = d.string(table, "client_id", at: path, expected: "a client id such as \"nearby-hall\"")
        if settings.clientID?.isEmpty == true {
            d.issue("mqtt.client_id", "the client id is empty; remove the key for the default nearby-<host_name>")
            settings.clientID = nil
        }
        settings.hostName = name("host_name", "this host's name in topics, e.g. \"hall\"")
        settings.topicPrefix = name("topic_prefix", "a topic level such as \"nearby\"")
        settings.discovery = d.bool(table, "discovery", at: path)
        settings.discoveryPrefix = name("discovery_prefix", "Home Assistant's discovery prefix, e.g. \"homeassistant\"")
        settings.distanceRate = d.number(table, "distance_rate", at: path, expected: "publications per second, > 0 and ≤ 1000, e.g. 2") { $0 > 0 && $0 <= 1000 }
        settings.distanceStep = d.number(table, "distance_step", at: path, expected: "metres ≥ 0, e.g. 0.1") { $0 >= 0 }
        let versions = MQTTProtocolVersion.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
        if let version = d.string(table, "protocol", at: path, expected: versions) {
            settings.protocolVersion = MQTTProtocolVersion(rawValue: version)
            if settings.protocolVersion == nil { d.issue("mqtt.protocol", "'\(version)' is not an MQTT version; use \(versions)") }
        }
        settings.keepAlive = d.integer(table, "keepalive", at: path, expected: "seconds, 5-65535, e.g. 30") { (5...65535).contains($0) }
        settings.username = d.string(table, "username", at: path, expected: "a user name")
        if let password = d.string(table, "password", at: path, expected: "a string") { settings.password = MQTTSecret(password) }
        settings.caFile = d.string(table, "ca_file", at: path, expected: "a PEM file path")
        settings.certFile = d.string(table, "cert_file", at: path, expected: "a PEM file path")
        settings.keyFile = d.string(table, "key_file", at: path, expected: "a PEM file path")
        if (settings.certFile == nil) != (settings.keyFile == nil) {
            d.issue(settings.certFile == nil ? "mqtt.key_file" : "mqtt.cert_file", "a client certificate needs both cert_file and key_file")
        }
        settings.queueLimit = d.integer(table, "queue", at: path, expected: "QoS 1 events kept offline, 1-1000000, e.g. 1000") { (1...1_000_000).contains($0) }
        settings.reconnectMaximum = d.number(table, "reconnect_max", at: path, expected: "seconds ≥ 1, e.g. 30") { $0 >= 1 }
        settings.rangeRate = d.number(table, "range_rate", at: path, expected: "samples per second, 0 (none) to 1000, e.g. 10") { (0...1000).contains($0) }
        settings.heartbeat = d.number(table, "heartbeat", at: path, expected: "seconds, 0 (never) or 1-86400, e.g. 60") { $0 == 0 || (1...86_400).contains($0) }
        return settings
    }
}
