// The host's own work in the NI exchange, from the accessory's configuration data (0x01) arriving
// to configureAndStart (0x0B) being ready to send: decode and validate the message, plan the
// session, encode the shareable configuration, derive and encode the dev kit's app-config TLVs.
// Budget: 5 ms (a late answer makes the accessory's session time out). The dev kit's
// SESSION_INIT / SET_APP_CONFIG round trips and the GATT write are not ours and not in here;
// `nearby demo` and the session tests report the whole split per session (SessionLatency).
import Benchmark
import NIProtocol
import UCI

/// TV-2 of the reference: message 0x0B with shareable configuration data v1.1 from an iPhone.
let tv2: [UInt8] = [
    0x0B, 0x01, 0x00, 0x01, 0x00, 0x19, 0x45, 0x55, 0xa8, 0x5f, 0x00, 0x00, 0x0b, 0x09, 0x06, 0x00, 0x10, 0x0e, 0xc6, 0x00,
    0x03, 0x39, 0x7b, 0x28, 0xd4, 0xb8, 0xd7, 0x87, 0xb4, 0x64, 0x00,
]

/// TV-1 of the reference: message 0x01, ACD 1.0 with UWB config data v1.1 (Qorvo values).
let tv1: [UInt8] = [
    0x01, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x15,
    0x01, 0x00, 0x01, 0x00, 0x3f, 0xf5, 0x03, 0x00, 0xb8, 0x0b, 0x00, 0x00, 0x00, 0x00, 0x01, 0x01, 0x01,
    0x12, 0x00, 0x19, 0x00,
]

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .throughput, .mallocCountTotal], maxDuration: .seconds(2))

    Benchmark("NI exchange: 0x01 bytes -> plan -> 0x0B bytes + app-config TLVs (host's own work)") { benchmark in
        let planner = SessionPlanner()
        let device = LocalUWBDevice(uciVersion: .v2_0, channels: [5, 9])
        var random = SystemRandomNumberGenerator()
        precondition((try? NIMessage(decoding: tv1)) != nil, "TV-1 must decode")
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            guard case .accessoryConfigurationData(let acd)? = try? NIMessage(decoding: tv1),
                let plan = try? planner.plan(for: acd, device: device, using: &random),
                let configs = try? plan.hostParameters.appConfigs(for: .v2_0)
            else { fatalError("TV-1 did not plan") }
            blackHole(plan.configureMessage.encoded())
            blackHole(configs)
        }
    }

    // The accessory role (nearby accessory): what happens between a phone's message arriving and
    // the answer / the kit's first command. Budget: < 2 ms for 0x0A -> 0x01.
    Benchmark("accessory role: 0x0A in -> 0x01 bytes out (decode; the answer is built once)") { benchmark in
        let profile = AccessoryRoleProfile(address: 0x0A0B)
        let answer = NIMessage.accessoryConfigurationData(profile.accessoryConfigurationData()).encoded()
        let initialize: [UInt8] = [0x0A]
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            guard case .initialize? = try? NIMessage(decoding: initialize, dialect: nil) else { fatalError("0x0A did not decode") }
            blackHole(answer)
        }
    }

    Benchmark("accessory role: 0x0B bytes -> derived session -> SESSION_SET_APP_CONFIG payload (own work before the kit)") { benchmark in
        let profile = AccessoryRoleProfile(address: 0x0A0B)
        precondition((try? NIMessage(decoding: tv2, dialect: .apple)) != nil, "TV-2 must decode")
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            guard case .configureAndStart(let shareable)? = try? NIMessage(decoding: tv2, dialect: .apple),
                let configs = try? profile.parameters(for: shareable).appConfigs(for: .v1_1),
                let payload = try? UCICommand.setAppConfig(session: shareable.sessionID, configs: configs).encodePayload()
            else { fatalError("TV-2 did not derive") }
            blackHole(payload)
        }
    }
}
