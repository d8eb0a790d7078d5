import Foundation
import NearbyConfig
import Ranging
import Testing

/// `nearby config check` and the engine flags as library calls.
@Suite struct ConfigurationCheckTests {
    @Test func standardInputIsCheckedAsStdin() {
        let valid = ConfigurationCheck(file: "-", validators: .syntax) { Array("[zones]\nboundaries = [1, 2]\n".utf8) }
        guard case .valid(let source, let configuration) = valid else {
            Issue.record("\(valid)")
            return
        }
        #expect(source == "<stdin>" && configuration.zones.boundaries == [1, 2])
        #expect(valid.lines == ["<stdin>: OK", configuration.summary])

        let invalid = ConfigurationCheck(file: "-", validators: .syntax) { Array("[zones]\nboundaries = \"near\"\n[nope]\n".utf8) }
        guard case .invalid(let error) = invalid else {
            Issue.record("\(invalid)")
            return
        }
        #expect(error.source == "<stdin>" && error.issues.count == 2)
        #expect(invalid.lines == [error.description, "2 problems in <stdin>"])
    }

    @Test func aNamedFileMustExist() throws {
        let path = NSTemporaryDirectory() + "nearby-check-\(UUID().uuidString).toml"
        let missing = ConfigurationCheck(file: path, validators: .syntax) { [] }
        guard case .invalid(let error) = missing else {
            Issue.record("\(missing)")
            return
        }
        #expect(error.issues.first?.message.hasPrefix("no such file") == true)
        try Data("[output]\njson = true\n".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let valid = ConfigurationCheck(file: path, validators: .syntax) { [] }
        #expect(valid.lines.first == "\(path): OK")
    }

    @Test func absentDefaultFileHasAHowTo() {
        let lines = ConfigurationCheck.absent(path: "/home/u/.config/nearby/config.toml").lines
        #expect(lines == [
            "no configuration file at /home/u/.config/nearby/config.toml; every setting has its default",
            "create one with: mkdir -p /home/u/.config/nearby && nearby config example > /home/u/.config/nearby/config.toml",
        ])
        #expect(ConfigurationCheck.noDefaultLocation.lines.isEmpty)
    }

    @Test func engineSettingsFromText() throws {
        let overlay = try NearbyConfiguration(filter: "ema", zones: "1, 2.5", hysteresis: 0.1, dwell: nil, lostAfter: 4)
        #expect(overlay.filter.spec == FilterSpec(.ema))
        #expect(overlay.zones.boundaries == [1, 2.5] && overlay.zones.hysteresis == 0.1 && overlay.zones.dwell == nil)
        #expect(overlay.zones.lostAfter == 4)
        #expect(try NearbyConfiguration(filter: nil, zones: nil, hysteresis: nil, dwell: nil, lostAfter: nil) == NearbyConfiguration())
        #expect(throws: EngineSettingError.zones(ZoneBoundaryTextError(field: "far"))) {
            try NearbyConfiguration(filter: nil, zones: "1,far", hysteresis: nil, dwell: nil, lostAfter: nil)
        }
        #expect(throws: EngineSettingError.lostAfter(0)) { try NearbyConfiguration(filter: nil, zones: nil, hysteresis: nil, dwell: nil, lostAfter: 0) }
        #expect(EngineSettingError.lostAfter(0).description == "lost-after must be > 0 seconds, not 0.0")
        do {
            _ = try NearbyConfiguration(filter: "nope", zones: nil, hysteresis: nil, dwell: nil, lostAfter: nil)
            Issue.record("an unknown filter was accepted")
        } catch {
            #expect(error.description.hasPrefix("filter: "))
        }
    }
}
