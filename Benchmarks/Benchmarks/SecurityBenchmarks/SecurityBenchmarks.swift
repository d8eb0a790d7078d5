import Benchmark
import LowEnergy

/// Our own pairing work (no radio, no HCI): what a pairing costs this host's CPU, P-256
/// included, and the per-report cost of resolving private addresses while scanning.
let benchmarks: @Sendable () -> Void = {
    let central = IdentityAddress(address: BluetoothAddress("C0:11:22:33:44:55")!, type: .random)
    let peripheral = IdentityAddress(address: BluetoothAddress("F0:F1:F2:F3:F4:F5")!, type: .random)
    let centralIdentity = LocalIdentity(address: central, irk: .random())
    let peripheralIdentity = LocalIdentity(address: peripheral, irk: .random())

    /// One complete pairing between two in-memory sessions (both sides' work).
    func pair(_ configuration: SecurityConfiguration, _ peripheralConfiguration: SecurityConfiguration) -> Bond? {
        var initiator = PairingSession(role: .initiator, configuration: configuration, localAddress: central,
                                       peerAddress: peripheral, localIdentity: centralIdentity)
        var responder = PairingSession(role: .responder, configuration: peripheralConfiguration, localAddress: peripheral,
                                       peerAddress: central, localIdentity: peripheralIdentity)
        var queue: [(Bool, PairingSession.Action)] = initiator.start().map { (true, $0) }
        var bond: Bond?
        while !queue.isEmpty {
            let (fromInitiator, action) = queue.removeFirst()
            switch action {
            case .send(let pdu):
                // Through the wire format, as on a link.
                guard let decoded = try? SMPPDU(decoding: pdu.bytes) else { return nil }
                if fromInitiator {
                    queue += responder.receive(decoded).map { (false, $0) }
                } else {
                    queue += initiator.receive(decoded).map { (true, $0) }
                }
            case .startEncryption:
                queue += responder.encryptionChanged(success: true).map { (false, $0) }
                queue += initiator.encryptionChanged(success: true).map { (true, $0) }
            case .verifyPeerKeys:
                // The hosts accept the keys (their bond-store lookups are not the pairing's CPU work).
                if fromInitiator {
                    queue += initiator.peerKeysVerified(nil).map { (true, $0) }
                } else {
                    queue += responder.peerKeysVerified(nil).map { (false, $0) }
                }
            case .completed(let made, _):
                if fromInitiator { bond = made }
            case .failed:
                return nil
            default:
                break
            }
        }
        return bond
    }

    Benchmark("SMP: LE Secure Connections Just Works pairing, both sides (2 P-256 key pairs, 2 DHKeys, f4/f5/f6, keys)",
              configuration: .init(metrics: [.wallClock, .throughput, .mallocCountTotal], maxDuration: .seconds(5))) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(pair(SecurityConfiguration(), SecurityConfiguration()))
        }
    }

    var legacy = SecurityConfiguration()
    legacy.secureConnectionsSupported = false
    Benchmark("SMP: legacy Just Works pairing, both sides (c1, s1, LTK + EDIV/Rand and IRK distribution)",
              configuration: .init(metrics: [.wallClock, .throughput, .mallocCountTotal], maxDuration: .seconds(5))) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(pair(SecurityConfiguration(), legacy))
        }
    }

    let peerKey = PairingKeyPair()
    Benchmark("SMP: one side's P-256 work (key pair + DHKey)",
              configuration: .init(metrics: [.wallClock, .throughput, .mallocCountTotal], maxDuration: .seconds(5))) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try? PairingKeyPair().dhKey(peerX: peerKey.x, peerY: peerKey.y))
        }
    }

    let keys = (0..<10).map { _ in ResolvingKey(identity: peripheral, irk: .random()) }
    let stranger = ResolvablePrivateAddress.generate(with: .random())
    Benchmark("SMP: an advertising report's private address checked against 10 stored IRKs (ah, no match)",
              configuration: .init(metrics: [.throughput, .mallocCountTotal])) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(ResolvablePrivateAddress.resolve(stranger, among: keys))
        }
    }
}
