import FuzzSupport
import NIProtocol
import UCI
import NearbyBase

/// NI accessory protocol messages from a BLE peer (module NIProtocol): `NIMessage(decoding:)`
/// with the automatic, Apple and Android dialects (ACD, shareable configuration data,
/// UwbDeviceConfigData / UwbPhoneConfigData, iOSNotify, ...), and session planning from what an
/// accessory sent (the host's next step).
///
/// Input: the message (ID byte + payload), as one ATT write or notification carries it.
/// Invariants: a decoded message re-encodes to exactly its bytes; the automatic dialect decodes
/// to one of the explicit dialects' results; a plan, when one is made, has a non-zero session ID.
@main enum FuzzNIMessage: FuzzTarget {
    static let seeds: [[UInt8]] = [
        // The reference's TV-1 (ACD 1.0 with UWB config data v1.1) and TV-2 (shareable data v1.1).
        "01 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 15 01 00 01 00 3f f5 03 00 b8 0b 00 00 00 00 01 01 01 12 00 19 00",
        "0b 01 00 01 00 19 45 55 a8 5f 00 00 0b 09 06 00 10 0e c6 00 03 39 7b 28 d4 b8 d7 87 b4 64 00",
        // Android: UwbDeviceConfigData and UwbPhoneConfigData (big-endian).
        "01 01 00 00 00 01 02 03 04 05 06 07 00 00 00 0e 03 1a 2b",
        "0b 01 00 00 00 11 22 33 44 0a 09 01 02 3c 4d",
        "02", "03", "0a", "a5", "0c", "20 01 02", "21 03 04", "2f 00 01",
        // Qorvo's device parameters (ble_niq.c): the 0x20 answer with its defaults, a 0x21, a 0x22.
        "20 01 01 01 02 03 09 0b 00 01 00 00 01 00 60 09 00 00 57 04 00 00 64 00 00 00 e0 47 00 00 01 00 00 00",
        "21 01 00 01 02 03 05 0b 00 01 0a 0a 87 b4 10 0e 64 00 78 56 34 12 c6 00 00 00 60 54 00 00 00 00 00 00",
        "22 00",
    ].map { (try? Hex.parse($0)) ?? [] }

    static func fuzz(_ input: [UInt8]) {
        var results: [NIMessage] = []
        for dialect in [NIDialect.apple, .android] {
            guard let message = try? NIMessage(decoding: input, dialect: dialect) else { continue }
            FuzzCheck.require(message.encoded() == input, "\(message) does not re-encode to \(input)")
            results.append(message)
            plan(message)
        }
        if let automatic = try? NIMessage(decoding: input) {
            FuzzCheck.require(automatic.encoded() == input, "\(automatic) does not re-encode to \(input)")
            FuzzCheck.require(results.contains(automatic), "the automatic dialect gave \(automatic), no explicit one did")
        }
    }

    static func plan(_ message: NIMessage) {
        var random = SplitMix(state: 1)
        let planner = SessionPlanner()
        let device = LocalUWBDevice(uciVersion: .v2_0)
        switch message {
        case .accessoryConfigurationData(let acd):
            if let plan = try? planner.plan(for: acd, device: device, using: &random) {
                FuzzCheck.require(plan.sessionID != 0, "planned session ID 0")
                _ = plan.configureMessage.encoded()
                _ = plan.summary
            }
        case .androidAccessoryConfigurationData(let data):
            if let plan = try? planner.plan(for: data, device: device, using: &random) {
                FuzzCheck.require(plan.sessionID != 0, "planned session ID 0")
                _ = plan.configureMessage.encoded()
                _ = plan.summary
            }
        default:
            break
        }
    }
}

/// A deterministic generator (SplitMix64), so that findings reproduce.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
