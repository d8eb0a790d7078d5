import Foundation
import LowEnergy
import NearbyTestSupport
import Synchronization
import Testing

/// Our Security Manager against Bumble's own, in both roles: every pairing method, bonds reused
/// by a second host, Security Requests, refusals, a forgotten bond, resolvable private addresses.
extension BumbleTests {
    @Suite("Bumble: pairing and encryption (our SMP against Bumble's)")
    struct Security {
        /// A fixed own identity, so a second host is the same central to the accessory.
        static let identity = LocalIdentity(
            address: IdentityAddress(address: BluetoothAddress("C0:AA:BB:CC:DD:01")!, type: .random),
            irk: SecurityKey(hex: "00112233445566778899aabbccddeeff")!)

        /// Numbers our delegate showed or compared.
        final class Shown: Sendable {
            private let values = Mutex<[UInt32]>([])
            var all: [UInt32] { values.withLock { $0 } }
            func add(_ value: UInt32) { values.withLock { $0.append(value) } }
        }

        static func context(io: IOCapability = .noInputNoOutput, mitm: Bool = false, delegate: any PairingDelegate = UnattendedPairingDelegate(),
                            bonds: any BondStore = InMemoryBondStore(), identity: LocalIdentity? = identity,
                            configure: (inout SecurityConfiguration) -> Void = { _ in }) -> SecurityContext {
            var configuration = SecurityConfiguration(ioCapability: io, requireMITM: mitm)
            configure(&configuration)
            return SecurityContext(configuration: configuration, bonds: bonds, delegate: delegate, identity: identity)
        }

        static func firstPaired(_ events: AsyncStream<ConnectionEvent>) async throws -> ConnectionEvent {
            try await first(events) {
                switch $0 {
                case .paired, .securityFailed: return true
                default: return false
                }
            }
        }

        // MARK: - This host as the central

        @Test("LE Secure Connections Just Works: keys exchanged both ways, the accessory files the bond under our identity")
        func scJustWorks() async throws {
            let peer = try await BumblePeer.start()
            defer { peer.stop() }
            let bonds = InMemoryBondStore()
            let host = try await peer.startHost(security: Self.context(bonds: bonds))
            let connection = try await host.connect(to: peer.accessoryAddress, type: .random)
            let bond = try await connection.pair()
            #expect(bond.secureConnections && !bond.authenticated && bond.keySize == 16)
            #expect(bond.peerLongTermKey != nil && bond.peerLongTermKey == bond.localLongTermKey)
            #expect(bond.peerIRK != nil, "Bumble distributes its IRK and identity")
            #expect(await connection.security.level == .encrypted)
            try await peer.waitFor("PAIRED sc=1 ltk=1 irk=1 identity=C0:AA:BB:CC:DD:01")
            try await peer.waitFor("ENCRYPTED encryption=1")
            #expect(await bonds.all.count == 1)
            #expect(!"\(bond)".contains(bond.peerLongTermKey!.key.hexString), "descriptions never show keys")
            await host.close()
        }

        @Test("Numeric Comparison: both sides show the same number and confirm")
        func numericComparison() async throws {
            let peer = try await BumblePeer.start(["--io", "displayyesno"])
            defer { peer.stop() }
            let shown = Shown()
            let delegate = FixedPairingDelegate(confirms: true) { shown.add($0) }
            let host = try await peer.startHost(security: Self.context(io: .keyboardDisplay, mitm: true, delegate: delegate))
            let connection = try await host.connect(to: peer.accessoryAddress, type: .random)
            let bond = try await connection.pair()
            #expect(bond.authenticated && bond.secureConnections)
            let number = try #require(shown.all.first)
            try await peer.waitFor("COMPARE number=\(String(format: "%06d", number))")
            #expect(await connection.security.level == .authenticated)
            await host.close()
        }

        @Test("Passkey Entry, the accessory displays: the right passkey pairs, a wrong one fails with Confirm Value Failed")
        func passkeyAccessoryDisplays() async throws {
            let peer = try await BumblePeer.start(["--io", "display", "--passkey", "123456"])
            defer { peer.stop() }
            let host = try await peer.startHost(security: Self.context(io: .keyboardDisplay, mitm: true,
                                                                       delegate: FixedPairingDelegate(passkey: 123_456)))
            let connection = try await host.connect(to: peer.accessoryAddress, type: .random)
            let bond = try await connection.pair()
            #expect(bond.authenticated)
            try await peer.waitFor("PASSKEY-DISPLAYED number=123456")
            await host.close()

            let wrongPeer = try await BumblePeer.start(["--io", "display", "--passkey", "123456"])
            defer { wrongPeer.stop() }
            let wrongHost = try await wrongPeer.startHost(security: Self.context(io: .keyboardDisplay, mitm: true,
                                                                                 delegate: FixedPairingDelegate(passkey: 654_321)))
            let wrongConnection = try await wrongHost.connect(to: wrongPeer.accessoryAddress, type: .random)
            await #expect {
                try await wrongConnection.pair()
            } throws: { error in
                guard case BluetoothError.security(let security) = error else { return false }
                switch security {
                case .pairingFailedByPeer(let reason), .pairingFailed(let reason, _): return reason == .confirmValueFailed
                default: return false
                }
            }
            await wrongHost.close()
        }

        @Test("Passkey Entry, this host displays and the accessory's user types it")
        func passkeyHostDisplays() async throws {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("nearby-passkey-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: file) }
            let peer = try await BumblePeer.start(["--io", "keyboard", "--passkey-file", file])
            defer { peer.stop() }
            let delegate = FixedPairingDelegate { passkey in
                try? String(format: "%06d", passkey).write(toFile: file, atomically: true, encoding: .utf8)
            }
            let host = try await peer.startHost(security: Self.context(io: .displayOnly, mitm: true, delegate: delegate))
            let connection = try await host.connect(to: peer.accessoryAddress, type: .random)
            let bond = try await connection.pair()
            #expect(bond.authenticated)
            let typed = try String(contentsOfFile: file, encoding: .utf8)
            try await peer.waitFor("PASSKEY-TYPED number=\(typed)")
            await host.close()
        }

        @Test("legacy pairing (a Bluetooth 4.0/4.1 accessory): Just Works and Passkey Entry; the distributed LTK encrypts")
        func legacyPairing() async throws {
            let peer = try await BumblePeer.start(["--legacy-pairing", "--no-mitm"])
            defer { peer.stop() }
            let host = try await peer.startHost(security: Self.context())
            let connection = try await host.connect(to: peer.accessoryAddress, type: .random)
            let bond = try await connection.pair()
            #expect(!bond.secureConnections && !bond.authenticated)
            #expect(bond.peerLongTermKey != nil, "the accessory distributed its LTK, EDIV and Rand")
            try await peer.waitFor("PAIRED sc=0")
            await host.close()

            let passkeyPeer = try await BumblePeer.start(["--legacy-pairing", "--io", "display", "--passkey", "000042"])
            defer { passkeyPeer.stop() }
            let passkeyHost = try await passkeyPeer.startHost(security: Self.context(io: .keyboardDisplay, mitm: true,
                                                                                     delegate: FixedPairingDelegate(passkey: 42)))
            let passkeyConnection = try await passkeyHost.connect(to: passkeyPeer.accessoryAddress, type: .random)
            let passkeyBond = try await passkeyConnection.pair()
            #expect(passkeyBond.authenticated && !passkeyBond.secureConnections)
            await passkeyHost.close()
        }

        @Test("a Security Request right after connecting is answered by pairing (no bond yet)")
        func securityRequest() async throws {
            let peer = try await BumblePeer.start(["--security-request"])
            defer { peer.stop() }
            let host = try await peer.startHost(security: Self.context())
            let hostEvents = host.events()
            let connectionTask = Task { try await host.connect(to: peer.accessoryAddress, type: .random) }
            // Subscribe as early as possible: the request comes right after the link is up.
            let event = try await first(hostEvents) { if case .connected = $0 { true } else { false } }
            guard case .connected(let connection) = event else { return }
            _ = try await connectionTask.value
            try await peer.waitFor("PAIRED sc=1")
            try await HCIHostTests.waitUntil { await connection.security.bond != nil }
            #expect(await connection.security.level == .encrypted)
            await host.close()
        }

        @Test("a Security Request from a bonded accessory is answered by encrypting, not by pairing again")
        func securityRequestWhenBonded() async throws {
            let peer = try await BumblePeer.start(["--security-request"])
            defer { peer.stop() }
            var configuration = SecurityConfiguration()
            configuration.encryptWhenBonded = false  // only the Security Request makes it encrypt
            let host = try await peer.startHost(security: SecurityContext(configuration: configuration, identity: Self.identity))
            let connection = try await host.connect(to: peer.accessoryAddress, type: .random)
            try await peer.waitFor("PAIRED sc=1")
            try await HCIHostTests.waitUntil { await connection.security.bond != nil }
            _ = try await connection.disconnect()
            let again = try await host.connect(to: peer.accessoryAddress, type: .random)
            try await peer.waitForLines("SECURITY-REQUEST-SENT", count: 2)
            try await HCIHostTests.waitUntil { await again.security.isEncrypted }
            try await peer.waitForLines("ENCRYPTED encryption=1", count: 2)
            #expect(peer.lines("PAIRED").count == 1)
            await host.close()
        }

        @Test("keys never reach the log, even at trace level (pairing, key distribution, encrypting again)")
        func keysNeverLogged() async throws {
            let peer = try await BumblePeer.start()
            defer { peer.stop() }
            let messages = RecordingLog.Messages()
            let host = try await BLEHost.open(peer.spec, configuration: BLEHostConfiguration(commandTimeout: .seconds(5)),
                                              security: Self.context(), logger: RecordingLog.logger(messages))
            let connection = try await host.connect(to: peer.accessoryAddress, type: .random)
            let bond = try await connection.pair()
            try await peer.waitFor("PAIRED")
            _ = try await connection.disconnect()
            let again = try await host.connect(to: peer.accessoryAddress, type: .random)
            #expect(await again.security.isEncrypted)
            await host.close()
            let log = messages.all.joined(separator: "\n").lowercased()
            #expect(log.contains("hci command hci le enable encryption"), "the command is logged, its key is not")
            for key in [bond.peerLongTermKey!.key, bond.peerIRK!, Self.identity.irk] {
                let spaced = key.bytes.map { String(format: "%02x", $0) }
                for form in [spaced.joined(), spaced.joined(separator: " "), spaced.reversed().joined(separator: " "),
                             spaced.reversed().joined()] {
                    #expect(!log.contains(form), "a key appeared in the log")
                }
            }
        }

        @Test("an accessory that refuses pairing: a clear error naming the reason, the link stays up")
        func refusedPairing() async throws {
            let peer = try await BumblePeer.start(["--refuse-pairing"])
            defer { peer.stop() }
            let host = try await peer.startHost(security: Self.context())
            let connection = try await host.connect(to: peer.accessoryAddress, type: .random)
            await #expect {
                try await connection.pair()
            } throws: { error in
                guard case BluetoothError.security(.pairingFailedByPeer(let reason)) = error else { return false }
                return reason == .pairingNotSupported && "\(error)".contains("Pairing Not Supported")
            }
            #expect(connection.isConnected)
            await host.close()
        }

        @Test("a read refused for Insufficient Authentication pairs, then succeeds on the one retry")
        func pairOnInsufficientAuthentication() async throws {
            let peer = try await BumblePeer.start(["--services", "qorvo,test"])
            defer { peer.stop() }
            let host = try await peer.startHost(security: Self.context())
            let connection = try await host.connect(to: peer.accessoryAddress, type: .random)
            let security = try await PeerGATT.characteristic(PeerGATT.qorvoSecurity, in: DataChannelService.qorvoNI.service, of: connection)
            #expect(try await connection.gatt.read(security) == Array("Qorvo".utf8))
            try await peer.waitFor("PAIRED")
            #expect(peer.lines("PAIRED").count == 1)
            #expect(await connection.security.bond != nil)
            await host.close()
        }

        @Test("a bond reused by a second host: it encrypts with the stored key, no new pairing")
        func bondReused() async throws {
            let peer = try await BumblePeer.start(["--services", "qorvo,test"])
            defer { peer.stop() }
            let bonds = InMemoryBondStore()
            let first = try await peer.startHost(security: Self.context(bonds: bonds))
            let connection = try await first.connect(to: peer.accessoryAddress, type: .random)
            try await connection.pair()
            // The accessory has filed the bond once it has our keys (the last PDUs of pairing).
            try await peer.waitFor("PAIRED")
            await first.close()
            try await peer.waitForLines("DISCONNECTED", count: 1)

            let second = try await peer.startHost(security: Self.context(bonds: bonds))
            #expect(await second.ownAddress == Self.identity.address.address, "the same central, from the stored identity")
            let again = try await second.connect(to: peer.accessoryAddress, type: .random)
            #expect(await again.security.isEncrypted, "encrypted while connecting, with the stored bond")
            try await peer.waitForLines("ENCRYPTED encryption=1", count: 2)
            let security = try await PeerGATT.characteristic(PeerGATT.qorvoSecurity, in: DataChannelService.qorvoNI.service, of: again)
            #expect(try await again.gatt.read(security) == Array("Qorvo".utf8))
            #expect(peer.lines("PAIRED").count == 1, "no second pairing")
            await second.close()
        }

        @Test("an accessory that forgot the bond: PIN or Key Missing is reported with how to pair again, never a pairing loop")
        func forgottenBond() async throws {
            let peer = try await BumblePeer.start(["--services", "qorvo,test"])
            defer { peer.stop() }
            let bonds = InMemoryBondStore()
            let host = try await peer.startHost(security: Self.context(bonds: bonds))
            let connection = try await host.connect(to: peer.accessoryAddress, type: .random)
            try await connection.pair()
            try await peer.waitFor("PAIRED")
            try await PeerGATT.control([0x0F], on: connection)
            try await peer.waitFor("BONDS-FORGOTTEN count=1")
            _ = try await connection.disconnect()

            // Connecting encrypts with the stored key; the accessory answers PIN or Key Missing.
            let again = try await host.connect(to: peer.accessoryAddress, type: .random)
            guard case .keyMissing? = await again.security.lastError else {
                Issue.record("expected keyMissing, got \(String(describing: await again.security.lastError))")
                return
            }
            let security = try await PeerGATT.characteristic(PeerGATT.qorvoSecurity, in: DataChannelService.qorvoNI.service, of: again)
            await #expect {
                _ = try await again.gatt.read(security)
            } throws: { error in
                guard case BluetoothError.security(.keyMissing) = error else { return false }
                return "\(error)".contains("nearby setup --repair")
            }
            #expect(peer.lines("PAIRED").count == 1, "no automatic second pairing")
            await host.close()
        }

        @Test("an accessory with resolvable private addresses is recognised under its next address with the stored IRK")
        func resolvablePrivateAddress() async throws {
            let irk = SecurityKey(hex: "ec0234a357c8ad05341010a60a397d9b")!
            let peer = try await BumblePeer.start(["--rpa-irk", irk.hexString])
            defer { peer.stop() }
            let bonds = InMemoryBondStore()
            let host = try await peer.startHost(security: Self.context(bonds: bonds))
            await host.refreshResolvingKeys()
            let firstAddress = try #require(await Self.rpa(of: peer, index: 0))
            let found = try await first(try await host.scan()) { $0.address == firstAddress }
            #expect(found.address.randomAddressKind == .resolvablePrivate)
            #expect(found.identity == nil, "not bonded yet")
            let connection = try await host.connect(to: firstAddress, type: .random)
            let bond = try await connection.pair()
            #expect(bond.peerIRK == irk)
            #expect(ResolvablePrivateAddress.resolves(firstAddress, with: irk))
            try await peer.waitFor("PAIRED")
            _ = try await connection.disconnect()

            try await peer.waitForLines("RPA address=", count: 2)
            let nextAddress = try #require(await Self.rpa(of: peer, index: 1))
            #expect(nextAddress != firstAddress)
            await host.refreshResolvingKeys()
            let next = try await first(try await host.scan()) { $0.address == nextAddress }
            #expect(next.identity == bond.peerIdentity, "resolved with the stored IRK")
            // Connecting by the identity reaches the accessory at its current private address.
            let again = try await host.connect(to: bond.peerIdentity.address, type: bond.peerIdentity.type)
            #expect(again.peerAddress == nextAddress)
            #expect(await again.security.isEncrypted, "the stored bond was found through the IRK")
            #expect(peer.lines("PAIRED").count == 1)
            await host.close()
        }

        static func rpa(of peer: BumblePeer, index: Int) async -> BluetoothAddress? {
            let lines = peer.lines("RPA address=")
            guard index < lines.count else { return nil }
            let text = lines[index].dropFirst("RPA address=".count).prefix(17)
            return BluetoothAddress(String(text))
        }

        // MARK: - This host as the peripheral

        /// Makes C0 advertise connectably (legacy advertising from the host's random address).
        static func advertise(_ host: BLEHost) async throws {
            var parameters: [UInt8] = [0x20, 0x00, 0x20, 0x00, 0x00, 0x01, 0x00]
            parameters += [UInt8](repeating: 0, count: 6) + [0x07, 0x00]
            try await host.hci.execute(HCICommand(HCIOpcode(rawValue: 0x2006), parameters))
            let data: [UInt8] = [0x02, 0x01, 0x06]
            try await host.hci.execute(HCICommand(HCIOpcode(rawValue: 0x2008), [UInt8(data.count)] + data + [UInt8](repeating: 0, count: 31 - data.count)))
            try await host.hci.execute(HCICommand(HCIOpcode(rawValue: 0x200A), [0x01]))
        }

        static let ownAddress = BluetoothAddress("C0:AA:BB:CC:DD:02")!

        /// Runs one peripheral-role pairing: the accessory (Bumble) connects as a central and pairs.
        static func pairAsPeripheral(peerArguments: [String], context: SecurityContext) async throws -> (BumblePeer, Bond) {
            let peer = try await BumblePeer.start(["--connect-to", ownAddress.description, "--pair-as-central"] + peerArguments)
            var configuration = BLEHostConfiguration(commandTimeout: .seconds(5), ownAddress: .randomStatic(ownAddress))
            configuration.acceptsPeripheralConnections = true
            var context = context
            context.identity = nil
            let host = try await peer.startHost(configuration, security: context)
            let hostEvents = host.events()
            try await advertise(host)
            let event = try await first(hostEvents) { if case .connected = $0 { true } else { false } }
            guard case .connected(let connection) = event else { throw ChildProcessError("no connection") }
            #expect(connection.role == .peripheral)
            try await peer.waitFor("PAIRED", timeout: .seconds(30))
            try await HCIHostTests.waitUntil { await connection.security.bond != nil }
            let bond = try #require(await connection.security.bond)
            await host.close()
            return (peer, bond)
        }

        @Test("peripheral role: Just Works and Numeric Comparison with Bumble as the central")
        func peripheralJustWorksAndComparison() async throws {
            let (peer, bond) = try await Self.pairAsPeripheral(peerArguments: ["--no-mitm"], context: Self.context())
            peer.stop()
            #expect(bond.secureConnections && !bond.authenticated)
            #expect(bond.localLongTermKey != nil, "the key given when the central encrypts")

            let shown = Shown()
            let (comparing, compared) = try await Self.pairAsPeripheral(
                peerArguments: ["--io", "displayyesno"],
                context: Self.context(io: .displayYesNo, delegate: FixedPairingDelegate(confirms: true) { shown.add($0) }))
            defer { comparing.stop() }
            #expect(compared.authenticated)
            let number = try #require(shown.all.first)
            try await comparing.waitFor("COMPARE number=\(String(format: "%06d", number))")
        }

        @Test("peripheral role: the bonded central comes back and encrypts; this host answers the LTK Request (SC and legacy)")
        func peripheralReencryption() async throws {
            for legacy in [false, true] {
                let peer = try await BumblePeer.start(["--connect-to", Self.ownAddress.description, "--pair-as-central",
                                                       "--reencrypt-as-central", "--no-mitm"] + (legacy ? ["--legacy-pairing"] : []))
                defer { peer.stop() }
                var configuration = BLEHostConfiguration(commandTimeout: .seconds(5), ownAddress: .randomStatic(Self.ownAddress))
                configuration.acceptsPeripheralConnections = true
                var context = Self.context()
                context.identity = nil
                let host = try await peer.startHost(configuration, security: context)
                let hostEvents = host.events()
                try await Self.advertise(host)
                try await peer.waitFor("PAIRED", timeout: .seconds(30))
                try await peer.waitFor("CENTRAL-DISCONNECTED")
                try await Self.advertise(host)
                try await peer.waitForLines("ENCRYPTED encryption=1", count: 2)
                #expect(peer.lines("CENTRAL-SECURITY-FAILED").isEmpty, "\(peer.process.stdout)")
                let connections = await collect(hostEvents, for: .milliseconds(200)).compactMap { event -> BLEConnection? in
                    if case .connected(let connection) = event { return connection }
                    return nil
                }
                let second = try #require(connections.last)
                #expect(connections.count == 2)
                #expect(await second.security.isEncrypted, "encrypted with the bond's key, no pairing")
                #expect(peer.lines("PAIRED").count == 1)
                await host.close()
            }
        }

        @Test("peripheral role: Passkey Entry both ways, and legacy pairing")
        func peripheralPasskey() async throws {
            // The central (Bumble) displays, this host types.
            let (displaying, typedBond) = try await Self.pairAsPeripheral(
                peerArguments: ["--io", "display", "--passkey", "246810"],
                context: Self.context(io: .keyboardOnly, delegate: FixedPairingDelegate(passkey: 246_810)))
            displaying.stop()
            #expect(typedBond.authenticated)

            // This host displays, the central's user types.
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("nearby-passkey-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: file) }
            let delegate = FixedPairingDelegate { passkey in
                try? String(format: "%06d", passkey).write(toFile: file, atomically: true, encoding: .utf8)
            }
            let (typing, shownBond) = try await Self.pairAsPeripheral(
                peerArguments: ["--io", "keyboard", "--passkey-file", file], context: Self.context(io: .displayOnly, delegate: delegate))
            typing.stop()
            #expect(shownBond.authenticated)

            let (legacy, legacyBond) = try await Self.pairAsPeripheral(peerArguments: ["--legacy-pairing", "--no-mitm"],
                                                                       context: Self.context())
            legacy.stop()
            #expect(!legacyBond.secureConnections)
            #expect(legacyBond.localLongTermKey != nil && legacyBond.peerLongTermKey != nil,
                    "legacy: each side distributed its own LTK")
        }
    }
}
