import Foundation
import LowEnergy
import NearbyTestSupport
import Synchronization
import Testing

/// The pairing policy (issue 24) through the real HCI path: one Bumble accessory per defect of
/// the review, each behaving as that kind of accessory does (Tests/Peers/blepeer/security.py).
/// The identity takeover and the Security Request flood run through the CLI
/// (NearbyCLITests/PairingPolicyCommandTests), where the store file and `--json` are checked.
extension BumbleTests {
    @Suite("Bumble: pairing policy (bonding flags, debug key, key distribution, encryption state)")
    struct PairingPolicy {
        static let identity = Security.identity

        static func context(bonds: InMemoryBondStore = InMemoryBondStore(),
                            configure: (inout SecurityConfiguration) -> Void = { _ in }) -> SecurityContext {
            Security.context(bonds: bonds, configure: configure)
        }

        /// The connection's security failures, as they were reported.
        static func securityFailures(_ events: [ConnectionEvent]) -> [SecurityError] {
            events.compactMap { if case .securityFailed(let error) = $0 { return error }; return nil }
        }

        @Test("No Bonding: paired and usable, nothing stored; the next connection pairs again, no 'reset' message")
        func noBonding() async throws {
            let peer = try await BumblePeer.start(["--no-bonding", "--services", "qorvo,test"])
            defer { peer.stop() }
            let bonds = InMemoryBondStore()
            let host = try await peer.startHost(security: Self.context(bonds: bonds))
            let connection = try await host.connect(to: peer.accessoryAddress, type: .random)
            let bond = try await connection.pair()
            #expect(!bond.persistent && bond.peerLongTermKey != nil)
            #expect(await connection.security.isEncrypted)
            try await peer.waitFor("PAIRED")
            #expect(await bonds.all.isEmpty, "no LTK stored for an accessory that does not bond")
            _ = try await connection.disconnect()

            // Nothing to encrypt with: the accessory's refusal makes it pair again, once.
            let again = try await host.connect(to: peer.accessoryAddress, type: .random)
            #expect(await again.security.lastError == nil, "no encryption attempt, so no PIN or Key Missing")
            let sec = try await PeerGATT.characteristic(PeerGATT.qorvoSecurity, in: DataChannelService.qorvoNI.service, of: again)
            #expect(try await again.gatt.read(sec) == Array("Qorvo".utf8))
            try await peer.waitForLines("PAIRED", count: 2)
            #expect(await bonds.all.isEmpty)
            await host.close()
        }

        @Test("the debug public key: refused by default (Authentication Requirements), accepted with allowsDebugKeys as unauthenticated")
        func debugKey() async throws {
            let peer = try await BumblePeer.start(["--debug-key"])
            defer { peer.stop() }
            let bonds = InMemoryBondStore()
            let host = try await peer.startHost(security: Self.context(bonds: bonds))
            let connection = try await host.connect(to: peer.accessoryAddress, type: .random)
            let events = connection.events()
            await #expect {
                try await connection.pair()
            } throws: { error in
                guard case BluetoothError.security(.refused(let refusal)) = error else { return false }
                return refusal.reason == .debugKey && "\(error)".contains("--allow-debug-keys")
            }
            try await peer.waitFor("PAIRING-FAILED reason=0x03")
            #expect(await bonds.all.isEmpty)
            #expect(await !connection.security.isEncrypted)
            let reported = Self.securityFailures(await collect(events, for: .milliseconds(100)))
            #expect(reported.contains { $0.code == "debug_key" }, "the refusal is an event: \(reported)")
            await host.close()

            let allowing = try await BumblePeer.start(["--debug-key"])
            defer { allowing.stop() }
            let allowedBonds = InMemoryBondStore()
            let allowedHost = try await allowing.startHost(security: Self.context(bonds: allowedBonds) { $0.allowsDebugKeys = true })
            let allowed = try await allowedHost.connect(to: allowing.accessoryAddress, type: .random)
            let bond = try await allowed.pair()
            #expect(!bond.authenticated && bond.persistent)
            #expect(await allowed.security.level == .encrypted)
            try await allowing.waitFor("PAIRED sc=1")
            await allowedHost.close()
        }

        @Test("a Pairing Response asking for a key this host did not offer fails at once with Invalid Parameters")
        func extraKeyDistribution() async throws {
            // The accessory asks this host (the initiator) for a signing key it did not offer.
            let peer = try await BumblePeer.start(["--extra-key-distribution", "04:00"])
            defer { peer.stop() }
            let host = try await peer.startHost(security: Self.context())
            let connection = try await host.connect(to: peer.accessoryAddress, type: .random)
            await #expect {
                try await connection.pair()
            } throws: { error in
                guard case BluetoothError.security(.pairingFailed(let reason, let detail)) = error else { return false }
                return reason == .invalidParameters && detail.contains("did not offer")
            }
            try await peer.waitFor("KEY-DISTRIBUTION-EXTRA initiator=0x04")
            try await peer.waitFor("PAIRING-FAILED reason=0x0a")
            #expect(peer.lines("PAIRED").isEmpty && peer.lines("ENCRYPTED").isEmpty, "failed before any key or encryption")
            await host.close()
        }

        @Test("central: an Encryption Change that fails during pairing keeps its HCI status; the link is not encrypted, nothing stored")
        func failedEncryptionAsCentral() async throws {
            // The accessory's controller rejects the encryption (0x1A Unsupported Remote Feature).
            let peer = try await BumblePeer.start(["--fail-encryption", "1a"])
            defer { peer.stop() }
            let bonds = InMemoryBondStore()
            let host = try await peer.startHost(security: Self.context(bonds: bonds))
            let connection = try await host.connect(to: peer.accessoryAddress, type: .random)
            await #expect {
                try await connection.pair()
            } throws: { error in
                guard case BluetoothError.security(.encryptionFailed(let status)) = error else { return false }
                return status.rawValue == 0x1A
            }
            try await peer.waitFor("ENCRYPTION-FAILED-BY-CONTROLLER controller=C1 status=0x1a")
            #expect(await !connection.security.isEncrypted)
            #expect(await connection.security.level == .none)
            #expect(await connection.security.keySize == nil)
            #expect(await bonds.all.isEmpty)
            await host.close()
        }

        @Test("peripheral: a failed Encryption Change after the LTK Request leaves the link unencrypted; the GATT server refuses SEC")
        func failedEncryptionAsPeripheral() async throws {
            // Our controller (C0) fails the phone's second encryption (its reconnection with the bond).
            let peer = try await BumblePeer.start(["--accessories", "0", "--phones", "1", "--phone-script", "reencrypt-sec",
                                                   "--controller-fails-encryption", "1f@2"])
            defer { peer.stop() }
            let accessory = try await Peripheral.FakeAccessory(peer: peer)
            let hostEvents = accessory.host.events()
            try await peer.waitFor("PHONE-SEC-PAIRED value=Qorvo", timeout: .seconds(60))
            try await peer.waitFor("ENCRYPTION-FAILED-BY-CONTROLLER controller=C0 status=0x1f", timeout: .seconds(60))
            try await peer.waitFor("PHONE-SEC-AGAIN", timeout: .seconds(30))
            let again = try #require(peer.lines("PHONE-SEC-AGAIN").first)
            #expect(again.hasPrefix("PHONE-SEC-AGAIN error=0x0f"), "served over a link whose encryption failed: \(again)")
            let connections = await collect(hostEvents, for: .milliseconds(100)).compactMap { event -> BLEConnection? in
                if case .connected(let connection) = event { return connection }
                return nil
            }
            if let second = connections.last, connections.count >= 2 {
                #expect(await !second.security.isEncrypted)
                #expect(await second.security.level == .none)
            }
            await accessory.host.close()
        }
    }
}
