import Foundation
import Hooks
import NearbyConfig
import Ranging
import Testing

/// Parsing the configuration file: values, every error kind with its line and key.
@Suite struct ConfigurationFileTests {
    func issues(_ text: String) -> [ConfigIssue] {
        do {
            _ = try ConfigurationFile.parse(text, source: "test.toml")
            Issue.record("expected errors for:\n\(text)")
            return []
        } catch {
            return error.issues
        }
    }

    @Test func theExampleParsesToItsValues() throws {
        let config = try ConfigurationFile.parse(ConfigurationFile.example, source: "example")
        #expect(config.zones == ZoneSettings(boundaries: [1.5, 3], names: ["near", "mid", "far"], hysteresis: 0.2, dwell: 0.3, lostAfter: 2))
        #expect(config.filter.spec == FilterSpec(.imm))
        #expect(config.filter.imm == .standard(for: .distance))
        #expect(config.filter.kalman == .standard(for: .distance))
        #expect(config.filter.oneEuro == .standard(for: .distance))
        #expect(config.filter.hampel == .standard(for: .distance))
        let hooks = try #require(config.hooks)
        #expect(hooks.count == 2)
        #expect(hooks[0] == (try HookDefinition(
            name: "welcome", on: .enter, zone: "near", accessory: "*", run: ["/usr/bin/logger", "-t", "nearby", "accessory is near"],
            timeout: 10, cooldown: 30)))
        #expect(hooks[1].trigger == .lost)
        #expect(hooks[1].run == ["/bin/sh", "-c", "echo \"lost $NEARBY_ACCESSORY at $NEARBY_TIMESTAMP\" >> \"$HOME/nearby-lost.log\""])
        #expect(hooks[1].timeout == HookDefinition.defaultTimeout)
        #expect(config.transports == TransportSettings(hci: "hci:0", uwb: "usb:1915:520f", hciLegacy: false, ownAddress: "random"))
        #expect(config.retry == RetrySettings(maxAttempts: 5, initialBackoff: 0.5, maxBackoff: 30))
        #expect(config.output == OutputSettings(json: false, color: .auto, logLevel: .warning))
        #expect(try config.zoneMap() == ZoneMap.standard.withoutFeatures)
        #expect(config.summary.contains("zones: near < 1.5 m, mid < 3 m, far; hysteresis 0.2 m, dwell 0.3 s, lost after 2 s"))
        #expect(config.summary.contains("  1. on enter near, accessory *: [\"/usr/bin/logger\", \"-t\", \"nearby\", \"accessory is near\"] (timeout 10 s, cooldown 30 s)"))
    }

    @Test func anEmptyFileIsAllDefaults() throws {
        let config = try ConfigurationFile.parse("# nothing\n", source: "empty")
        #expect(config == NearbyConfiguration())
        #expect(config.hooks == nil)
        #expect(config.filter.effectiveSpec == .default)
        #expect(try config.zoneMap() == ZoneMap.standard.withoutFeatures)
        #expect(config.zones.effectiveLostAfter == 2)
    }

    @Test func syntaxErrorsCarryLineAndColumn() {
        let found = issues("[zones]\nhysteresis = 0.2\ndwell = = 3\n")
        #expect(found.count == 1)
        #expect(found.first?.line == 3)
        #expect(found.first?.column != nil)
        #expect(found.first?.message.hasPrefix("TOML syntax error: ") == true)
    }

    @Test func unknownKeysAreErrorsWithTheKeyPathAndASuggestion() {
        let found = issues("""
            # comment
            [zones]
            boundary = [1.5, 3]

            [colour]
            x = 1
            """)
        #expect(found.map(\.line) == [3, 5])
        #expect(found.map(\.key) == ["zones.boundary", "colour"])
        #expect(found[0].message == "unknown key 'boundary' (did you mean 'boundaries'?); [zones] accepts boundaries, names, hysteresis, dwell, lost_after")
        #expect(found[1].message.hasPrefix("unknown key 'colour'; the sections are [zones], [filter], [hook], [transports], [retry], [output]"))
    }

    @Test func typeErrorsNameTheKeyAndTheExpectedType() {
        let found = issues("""
            [zones]
            hysteresis = "wide"
            boundaries = [1.5, "3"]

            [output]
            json = "yes"
            """)
        #expect(found.map(\.description) == [
            "line 2: zones.hysteresis: expected metres ≥ 0, e.g. 0.2, found a string (\"wide\")",
            "line 3: zones.boundaries[2]: expected a number, found a string (\"3\")",
            "line 6: output.json: expected true or false, found a string (\"yes\")",
        ])
    }

    @Test func rangeErrorsAndInvalidZoneMaps() {
        let found = issues("""
            [zones]
            boundaries = [3.0, 1.5]
            dwell = -1
            lost_after = 0

            [retry]
            initial_backoff = 5
            max_backoff = 1
            max_attempts = -2
            """)
        #expect(found.map(\.line) == [2, 3, 4, 8, 9])
        #expect(found.map(\.key) == ["zones.boundaries", "zones.dwell", "zones.lost_after", "retry.max_backoff", "retry.max_attempts"])
        #expect(found[0].message.contains("zone bounds must increase"))
        #expect(found[1].message == "-1 is out of range; expected seconds ≥ 0, e.g. 0.3")
        #expect(found[3].message == "1 s is below initial_backoff 5 s; make it at least as large")
        #expect(found[4].message == "-2 is out of range; expected an integer ≥ 0 (0 = never restart)")
    }

    @Test func zoneNamesMustMatchTheBoundaries() {
        let found = issues("[zones]\nboundaries = [2]\nnames = [\"in\", \"mid\", \"out\"]\n")
        #expect(found.map(\.key) == ["zones.names"])
        #expect(found.first?.line == 3)
        #expect(found.first?.message == "3 zone names for 1 boundaries; give 2 names (one more than the boundaries), innermost first")
    }

    @Test func hookErrorsPointAtTheHook() {
        let found = issues("""
            [[hook]]
            on = "enter"
            zone = "near"
            run = ["/bin/true"]

            [[hook]]
            on = "arrive"
            run = ["/bin/true"]

            [[hook]]
            on = "exit"
            zone = "nearr"
            run = ["/bin/true"]

            [[hook]]
            on = "lost"
            run = "/bin/true"
            timeout = 0

            [[hook]]
            zone = "far"

            [[hook]]
            on = "enter"
            zone = "nowhere"
            run = "/bin/true"
            """)
        #expect(found.map(\.line) == [7, 12, 17, 18, 20, 20, 25, 26])
        #expect(found.map(\.key) == [
            "hook[2].on", "hook[3].zone", "hook[4].run", "hook[4].timeout", "hook[5]", "hook[5]", "hook[6].zone", "hook[6].run",
        ])
        #expect(found[0].message == "'arrive' is not an event; use one of enter, exit, lost, found")
        #expect(found[1].message == "'nearr' is not a zone; the zones are near, mid, far (or \"*\" for any)")
        #expect(found[2].message == "expected an argv array of strings, e.g. [\"/usr/bin/logger\", \"nearby\"], found a string (\"/bin/true\")")
        #expect(found[3].message == "0 is out of range; expected seconds > 0, e.g. 10")
        #expect(found[4].message == "missing key 'on' (the event: enter, exit, lost, found)")
        #expect(found[5].message == "missing key 'run' (the command as an argv array, e.g. [\"/usr/bin/logger\", \"nearby\"])")
    }

    @Test func hookDefinitionRulesApplyInTheFile() {
        let found = issues("""
            [[hook]]
            on = "found"
            zone = "near"
            run = []
            """)
        // The first rule that fails is reported (zone on a found hook).
        #expect(found.map(\.key) == ["hook[1].zone"])
        #expect(found.first?.line == 3)
        #expect(found.first?.message == "a 'found' hook has no zone (only enter and exit have one); remove zone = \"near\"")
    }

    @Test func filterNamesAndParameters() throws {
        let found = issues("""
            [filter]
            name = "kalmann"

            [filter.kalman]
            gate = 0
            relock_count = 2.5
            sigma = 1
            """)
        #expect(found.map(\.key) == ["filter.name", "filter.kalman.gate", "filter.kalman.relock_count", "filter.kalman.sigma"])
        #expect(found.map(\.line) == [2, 5, 6, 7])
        #expect(found[0].message.hasPrefix("unknown filter 'kalmann'; use one of: default, raw, median3"))
        let config = try ConfigurationFile.parse("""
            [filter]
            name = "hampel+one-euro"
            [filter.one_euro]
            beta = 1
            [filter.hampel]
            window = 9
            """, source: "ok")
        #expect(config.filter.spec == FilterSpec(.oneEuro, hampel: true))
        #expect(config.filter.oneEuro == OneEuroFilter.Parameters(minimumCutoff: 0.2, beta: 1, derivativeCutoff: 1, frequency: 10))
        #expect(config.filter.hampel == HampelFilter.Parameters(windowSize: 9, threshold: 3, minimumDeviation: 0.1))
        let filter = config.filter.distanceFilter()
        #expect(filter.kind == .oneEuro)
        #expect(filter.hasPrefilter)
    }

    @Test func transportsAreCheckedBySyntaxOrByTheGivenValidators() throws {
        let found = issues("[transports]\nhci = \"hci0\"\nuwb = \"usb\"\n")
        #expect(found.map(\.key) == ["transports.hci", "transports.uwb"])
        #expect(found[0].message == "'hci0' is not a controller; write bluez[:hciN], hci:N (e.g. hci:0), tcp:HOST:PORT or serial:PATH[@BAUD][,rtscts]")
        let strict = TransportValidators(hci: { $0 == "hci:0" ? nil : "no" }, uwb: { _ in nil })
        let error = #expect(throws: ConfigError.self) {
            try ConfigurationFile.parse("[transports]\nhci = \"hci:1\"\n", source: "s", validators: strict)
        }
        #expect(error?.description == "s:2: transports.hci: no")
        #expect(try ConfigurationFile.parse("[transports]\nuwb = \"sim\"\n", source: "s").transports.uwb == "sim")
    }

    @Test func hciLegacyAndOwnAddressAreReadAndChecked() throws {
        let parsed = try ConfigurationFile.parse("[transports]\nhci_legacy = true\nown_address = \"public\"\n", source: "s")
        #expect(parsed.transports.hciLegacy == true && parsed.transports.ownAddress == "public")
        let found = issues("[transports]\nown_address = \"static\"\nhci_legacy = \"yes\"\n")
        #expect(found.map(\.key).sorted() == ["transports.hci_legacy", "transports.own_address"])
        #expect(found.contains { $0.message.contains("write \"random\"") })
        // Flags win over the file.
        let merged = TransportSettings(hciLegacy: false, ownAddress: "random").overridden(by: TransportSettings(hciLegacy: true))
        #expect(merged.hciLegacy == true && merged.ownAddress == "random")
    }

    @Test func everyErrorIsReportedNotJustTheFirstAndTheMessageIsCompilerStyle() {
        let text = "[zones]\ndwell = \"x\"\n\n[output]\ncolor = \"blue\"\nlog_level = \"loud\"\n"
        let error = #expect(throws: ConfigError.self) { try ConfigurationFile.parse(text, source: "/etc/nearby.toml") }
        #expect(error?.description == """
            /etc/nearby.toml:2: zones.dwell: expected seconds ≥ 0, e.g. 0.3, found a string ("x")
            /etc/nearby.toml:5: output.color: 'blue' is not a colour mode; use one of auto, always, never
            /etc/nearby.toml:6: output.log_level: 'loud' is not a log level; use one of trace, debug, info, notice, warning, error, critical
            """)
    }

    @Test func linesAreFoundThroughMultiLineValuesDottedAndQuotedKeys() {
        let found = issues("""
            [[hook]]
            on = "enter"
            run = [
              "/bin/echo",   # [ inside a comment
              "a ] b",
            ]
            note = \"\"\"
            timeout = 1
            \"\"\"
            [filter]
            kalman.gate = -1
            "name" = 3
            """)
        #expect(Set(found.map(\.key)) == ["hook[1].note", "filter.name", "filter.kalman.gate"])
        let byKey = Dictionary(found.map { ($0.key, $0.line) }, uniquingKeysWith: min)
        #expect(byKey["hook[1].note"] == 7)
        #expect(byKey["filter.kalman.gate"] == 11)
        #expect(byKey["filter.name"] == 12)
    }

    @Test func invalidUTF8IsReportedWithItsLine() {
        let bytes = Array("[zones]\n# ok\n# bad: ".utf8) + [0xFF, 0x0A]
        let error = #expect(throws: ConfigError.self) { try ConfigurationFile.parse(bytes: bytes, source: "b") }
        #expect(error?.issues.first?.line == 3)
        #expect(error?.issues.first?.message.hasPrefix("the file is not valid UTF-8 text") == true)
    }
}

/// Where the file is, and how flags override it.
@Suite struct ConfigurationPrecedenceTests {
    @Test func defaultPathFollowsXDGThenHome() {
        #expect(ConfigurationFile.defaultPath(environment: ["XDG_CONFIG_HOME": "/x/cfg", "HOME": "/home/u"]) == "/x/cfg/nearby/config.toml")
        #expect(ConfigurationFile.defaultPath(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/home/u"]) == "/home/u/.config/nearby/config.toml")
        #expect(ConfigurationFile.defaultPath(environment: ["HOME": "/home/u"]) == "/home/u/.config/nearby/config.toml")
        #expect(ConfigurationFile.defaultPath(environment: [:]) == nil)
    }

    @Test func explicitMissingFileIsAnErrorAndFilesAreRead() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nearby-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = directory.appendingPathComponent("none.toml").path
        let error = #expect(throws: ConfigError.self) { try ConfigurationFile.load(path: missing) }
        #expect(error?.description == "\(missing):1: no such file; create it (`nearby config example > \(missing)`) or fix the path")
        let file = directory.appendingPathComponent("config.toml")
        try "[zones]\nboundaries = [2.0]\n".write(to: file, atomically: true, encoding: .utf8)
        let loaded = try ConfigurationFile.load(path: file.path)
        #expect(loaded.path == file.path)
        #expect(loaded.configuration.zones.boundaries == [2])
        #expect(try loaded.configuration.zoneMap().zones.map(\.name) == ["near", "far"])
    }

    @Test func flagsOverrideTheFileValueByValue() throws {
        let file = try ConfigurationFile.parse("""
            [zones]
            boundaries = [1.0, 2.0]
            names = ["in", "porch", "out"]
            hysteresis = 0.1
            [filter]
            name = "ema"
            [output]
            json = true
            log_level = "info"
            [[hook]]
            on = "lost"
            run = ["/bin/true"]
            """, source: "f")
        var flags = NearbyConfiguration()
        flags.zones.hysteresis = 0.3
        flags.filter.spec = FilterSpec(.raw)
        flags.output.logLevel = .debug
        let merged = file.overridden(by: flags)
        #expect(merged.zones == ZoneSettings(boundaries: [1, 2], names: ["in", "porch", "out"], hysteresis: 0.3))
        #expect(merged.filter.spec == FilterSpec(.raw))
        #expect(merged.output == OutputSettings(json: true, logLevel: .debug))
        #expect(merged.hooks?.count == 1, "no hook flags: the file's hooks stay")
        // Hooks from flags replace the file's; new boundaries drop names that no longer fit.
        flags.hooks = [try HookDefinition(on: .enter, zone: "near", run: ["/bin/echo"])]
        flags.zones.boundaries = [1.5]
        let second = file.overridden(by: flags)
        #expect(second.hooks == flags.hooks)
        #expect(second.zones.names == nil)
        #expect(try second.zoneMap().zones.map(\.name) == ["near", "far"])
        // An empty override changes nothing.
        #expect(file.overridden(by: NearbyConfiguration()) == file)
        #expect(Precedence.resolve(flag: 3, config: 2, default: 1) == 3)
        #expect(Precedence.resolve(flag: nil, config: 2, default: 1) == 2)
        #expect(Precedence.resolve(flag: Int?.none, config: nil, default: 1) == 1)
    }

    @Test func thePipelineUsesTheConfiguredZonesAndLostAfter() throws {
        let config = try ConfigurationFile.parse("""
            [zones]
            boundaries = [2.0]
            names = ["inside", "outside"]
            dwell = 0
            lost_after = 0.5
            """, source: "p")
        var pipeline = try config.makePipeline()
        #expect(pipeline.lostAfter == 0.5)
        #expect(pipeline.zones.zones.map(\.name) == ["inside", "outside"])
        var events = Array(pipeline.process(RangeSample(timestamp: 0, distance: 1)).events)
        events += pipeline.tick(now: 1)
        let inside = ZoneRef(index: 0, name: "inside")
        #expect(events == [.found(at: 0), .zoneChanged(from: nil, to: inside, at: 0), .lost(at: 0.5, zone: inside), .zoneChanged(from: inside, to: nil, at: 0.5)])
    }
}

extension ZoneMap {
    /// The map without its features (the config file does not define features).
    var withoutFeatures: ZoneMap { try! ZoneMap(zones: zones) }
}

@Suite struct IMMConfigTests {
    @Test func theIMMTableReachesTheFilterAndBadValuesNameTheKey() throws {
        let config = try ConfigurationFile.parse("""
            [filter]
            name = "imm"
            [filter.imm]
            moving_noise = 2.5
            initial_still_probability = 0.5
            """, source: "t")
        #expect(config.filter.imm?.movingNoise == 2.5)
        #expect(config.filter.imm?.initialStillProbability == 0.5)
        #expect(config.filter.imm?.measurementNoise == IMMFilter.Parameters.standard(for: .distance).measurementNoise)
        do {
            _ = try ConfigurationFile.parse("[filter.imm]\ninitial_still_probability = 1.5\nstill_nois = 1\n", source: "t")
            Issue.record("expected errors")
        } catch {
            #expect(Set(error.issues.map(\.key)) == ["filter.imm.initial_still_probability", "filter.imm.still_nois"])
        }
        // The gate keys of the IMM before issue 27 say what replaced them (one issue each, at their line).
        do {
            _ = try ConfigurationFile.parse("[filter.imm]\ngate = 4.0\nrelock_count = 4\n", source: "t")
            Issue.record("expected errors")
        } catch {
            #expect(error.issues.map(\.key) == ["filter.imm.gate", "filter.imm.relock_count"])
            #expect(error.issues.map(\.line) == [2, 3])
            #expect(error.issues[0].message.contains("outlier_probability") && error.issues[1].message.contains("relock_time"))
        }
    }

    @Test func theLearnedOutlierShareIsConfigurableAndItsBoundsMustEncloseTheStart() throws {
        let config = try ConfigurationFile.parse("""
            [filter.imm]
            outlier_probability = 0.08
            min_outlier_probability = 0.01
            max_outlier_probability = 0.3
            outlier_time = 0
            """, source: "t")
        let imm = try #require(config.filter.imm)
        #expect(imm.outlierProbability == 0.08 && imm.minimumOutlierProbability == 0.01)
        #expect(imm.maximumOutlierProbability == 0.3 && imm.outlierTimeConstant == 0)
        // Unset bounds keep the standard ones, widened to include the start value.
        let wide = try #require(try ConfigurationFile.parse("[filter.imm]\noutlier_probability = 0.2\n", source: "t").filter.imm)
        let standard = IMMFilter.Parameters.standard(for: .distance)
        #expect(wide.minimumOutlierProbability == standard.minimumOutlierProbability && wide.maximumOutlierProbability == 0.2)
        #expect(wide.outlierTimeConstant == standard.outlierTimeConstant)
        do {
            _ = try ConfigurationFile.parse(
                "[filter.imm]\noutlier_probability = 0.05\nmin_outlier_probability = 0.1\nmax_outlier_probability = 0.01\noutlier_time = -1\n",
                source: "t")
            Issue.record("expected errors")
        } catch {
            #expect(
                Set(error.issues.map(\.key))
                    == ["filter.imm.min_outlier_probability", "filter.imm.max_outlier_probability", "filter.imm.outlier_time"])
        }
    }
}
