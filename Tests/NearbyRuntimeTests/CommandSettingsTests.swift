import LowEnergy
import NIProtocol
import NearbyConfig
import NearbyRuntime
import Simulation
import Testing
import UCI
import UWBDevice

/// What the commands' flags turn into in the runtime: the accessory role's settings, the
/// demo's kit options, `nearby uwb range`'s session.
@Suite struct CommandSettingsTests {
    @Test("[accessory] to the accessory role's settings: defaults for what is unset")
    func accessoryRoleSettings() {
        let defaults = AccessoryRoleSettings(file: AccessoryRoleFileSettings(), keyByteOrder: .vendorSwapped)
        #expect(defaults == AccessoryRoleSettings(keyByteOrder: .vendorSwapped))
        #expect(defaults.name == "nearby" && defaults.services == [.nus, .qnis] && defaults.layout == .v1_1 && defaults.role == .responder)
        #expect(defaults.address == nil && defaults.maximumPhones == 1 && defaults.advertisingIntervalMilliseconds == 100)
        // What Apple's sample app finds: Nordic UART in the advertising data, QNIS beside the name.
        #expect(defaults.dataChannels == [.nordicUART, .qorvoNI])
        #expect(defaults.advertising.advertisingData.serviceUUIDs == [DataChannelService.nordicUART.service])
        #expect(defaults.advertising.scanResponseData.serviceUUIDs == [DataChannelService.qorvoNI.service])
        #expect(defaults.advertising.maximumConnections == 1)
        #expect(AccessoryRoleSettings(services: [.qnis, .qnis, .apple]).dataChannels == [.qorvoNI], "each served once")
        let file = AccessoryRoleFileSettings(
            name: "door", services: ["nus", "apple"], configVersion: "1.0", role: "initiator", mac: 0x0A0B, maxPhones: 2,
            advertisingIntervalMilliseconds: 152.5)
        #expect(AccessoryRoleSettings(file: file, keyByteOrder: .vendorFirst) == AccessoryRoleSettings(
            name: "door", services: [.nus, .apple], layout: .v1_0, role: .initiator, address: 0x0A0B, maximumPhones: 2,
            advertisingIntervalMilliseconds: 152.5, keyByteOrder: .vendorFirst))
    }

    @Test("--serve-kit HOST:PORT (IPv6 in brackets) and --kit SPEC; malformed ones name the flag")
    func demoOptions() throws {
        let options = try DemoOptions(rangingIntervalMS: 10, serveKit: "[::1]:7000", kit: "tcp:127.0.0.1:7000")
        #expect(options.serve?.host == "::1" && options.serve?.port == 7000)
        #expect(options.hostKit == .tcp(host: "127.0.0.1", port: 7000) && options.rangingIntervalMS == 10)
        #expect(try DemoOptions(rangingIntervalMS: nil, serveKit: "127.0.0.1:0", kit: nil).serve?.host == "127.0.0.1")
        let none = try DemoOptions(rangingIntervalMS: nil, serveKit: nil, kit: nil)
        #expect(none.serve == nil && none.hostKit == nil)
        #expect(throws: DemoOptionsError(description: #"--serve-kit "localhost" is not HOST:PORT"#)) {
            try DemoOptions(rangingIntervalMS: nil, serveKit: "localhost", kit: nil)
        }
        #expect(throws: DemoOptionsError(description: #"--serve-kit "h:99999" is not HOST:PORT"#)) {
            try DemoOptions(rangingIntervalMS: nil, serveKit: "h:99999", kit: nil)
        }
        do {
            _ = try DemoOptions(rangingIntervalMS: nil, serveKit: nil, kit: "bogus")
            Issue.record("--kit bogus was accepted")
        } catch {
            #expect(error.description.hasPrefix("--kit: "))
        }
    }

    @Test("nearby uwb range's session from text: ids, addresses, one-to-many, errors naming the flag")
    func uwbRangeSession() throws {
        let (id, parameters) = try UWBRangeRun.session(
            id: "0x2A", mac: "0x0001", peers: ["0002", "0x0003"], deviceType: .controller, deviceRole: .initiator, channel: 9, preamble: 10,
            intervalMS: 200)
        #expect(id == 42)
        #expect(parameters.deviceMACAddress == .short(1) && parameters.destinationMACAddresses == [.short(2), .short(3)])
        #expect(parameters.multiNodeMode == .oneToMany && parameters.channel == 9 && parameters.rangingInterval == 200)
        func message(id: String = "1", mac: String = "1", peers: [String] = ["2"], channel: UInt8 = 9) -> String? {
            do {
                _ = try UWBRangeRun.session(
                    id: id, mac: mac, peers: peers, deviceType: .controlee, deviceRole: .responder, channel: channel, preamble: 10,
                    intervalMS: 200)
                return nil
            } catch {
                return error.description
            }
        }
        #expect(message() == nil)
        #expect(message(id: "x") == #"--session-id "x" is not a number 0-4294967295 (decimal or 0x hex)"#)
        #expect(message(mac: "0x12345")?.hasPrefix(#"--mac "0x12345" is not a MAC address"#) == true)
        #expect(message(peers: ["2", "zz"])?.hasPrefix(#"--peer "zz" is not a MAC address"#) == true)
        #expect(message(channel: 7) != nil, "the parameters are checked too")
    }

    @Test("the demo's first line: the scenario, who ranges, the length at the speed")
    func demoAnnouncement() throws {
        let scenario = try Scenario.named("demo")
        let prefix = "demo: scenario demo (\(scenario.summary)), "
        #expect(scenario.demoAnnouncement(hostIsAccessory: false, count: 1, length: 60, speed: 1) == prefix + "1 accessory, 60 s; Ctrl-C stops")
        #expect(scenario.demoAnnouncement(hostIsAccessory: false, count: 3, length: 60, speed: 10) == prefix + "3 accessories, 60 s at ×10 (6.0 s); Ctrl-C stops")
        #expect(scenario.demoAnnouncement(hostIsAccessory: true, count: 2, length: 30, speed: 0.5)
            == prefix + "this host as the accessory, 2 phones, 30 s at ×0.5 (60.0 s); Ctrl-C stops")
    }

    @Test("a replay's accessory: the id given, else the trace's file name")
    func replayIdentity() {
        #expect(TraceReplay.identity(path: "data/synthetic/walk.csv", name: "replay") == AccessoryIdentity(id: "walk.csv", displayName: "replay"))
        #expect(TraceReplay.identity(path: "walk.csv", id: "tag-1", name: "Keys") == AccessoryIdentity(id: "tag-1", displayName: "Keys"))
    }
}
