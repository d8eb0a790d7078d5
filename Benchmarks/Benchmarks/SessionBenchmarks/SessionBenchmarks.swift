// The host's own work in the NI exchange, from the accessory's configuration data (0x01) arriving
// to configureAndStart (0x0B) being ready to send: decode and validate the message, plan the
// session, encode the shareable configuration, derive and encode the dev kit's app-config TLVs.
// Budget: 5 ms (a late answer makes the accessory's session time out). The dev kit's
// SESSION_INIT / SET_APP_CONFIG round trips and the GATT write are not ours and not in here;
// `nearby demo` and the session tests report the whole split per session (SessionLatency).
import Benchmark
import NIProtocol
import UCI

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
}
