import LowEnergy
import Testing

/// The pairing policy as a table (specs/ble-security.md §3), rule by rule, without a link: what
/// may replace a bond, what a Security Request gets, the Repeated Attempts interval, the debug
/// key, key sizes, and the constant-time comparison and RPA rules of the toolbox.
@Suite("Pairing policy (the table of specs/ble-security.md §3)")
struct PairingPolicyTests {
    static let accessory = IdentityAddress(address: BluetoothAddress("F0:F1:F2:F3:F4:F5")!, type: .random)
    static let impostor = BluetoothAddress("F0:F1:F2:F3:F4:F6")!
    static let irk = SecurityKey(hex: "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff")!
    static let otherIRK = SecurityKey(hex: "000102030405060708090a0b0c0d0e0f")!

    static func bond(authenticated: Bool = false, secureConnections: Bool = true, keySize: Int = 16, irk: SecurityKey? = irk,
                     identity: IdentityAddress = accessory) -> Bond {
        Bond(peerIdentity: identity, peerLongTermKey: LongTermKey(key: SecurityKey([UInt8](repeating: 7, count: 16))!),
             localLongTermKey: nil, peerIRK: irk, keySize: keySize, authenticated: authenticated, secureConnections: secureConnections)
    }

    @Test("never a weaker bond: unauthenticated over authenticated, legacy over Secure Connections, a shorter key")
    func neverWeaker() {
        let policy = SecurityConfiguration().policy
        let strong = Self.bond(authenticated: true)
        let peer = Self.accessory.address
        #expect(policy.replacementRefusal(of: strong, by: Self.bond(authenticated: false), peer: peer)?.reason == .weakerThanBond)
        #expect(policy.replacementRefusal(of: Self.bond(), by: Self.bond(secureConnections: false), peer: peer)?.reason == .weakerThanBond)
        #expect(policy.replacementRefusal(of: Self.bond(), by: Self.bond(keySize: 10), peer: peer)?.reason == .weakerThanBond)
        // As strong, with the same IRK: may replace; stronger: may replace.
        #expect(policy.replacementRefusal(of: Self.bond(), by: Self.bond(), peer: peer) == nil)
        #expect(policy.replacementRefusal(of: Self.bond(), by: Self.bond(authenticated: true), peer: peer) == nil)
        // Checked before any key: the strength alone.
        let justWorks = PairingPolicy.Strength(authenticated: false, secureConnections: true, keySize: 16)
        let refusal = policy.replacementRefusal(of: strong, by: justWorks, peer: peer)
        #expect(refusal?.sent == .authenticationRequirements)
        #expect(refusal?.action.contains("nearby setup --repair") == true)
    }

    @Test("never a different IRK or identity for a bonded device; --repair allows both")
    func identityConflict() {
        var configuration = SecurityConfiguration()
        let policy = configuration.policy
        let takeover = policy.replacementRefusal(of: Self.bond(), by: Self.bond(irk: Self.otherIRK), peer: Self.impostor)
        #expect(takeover?.reason == .identityConflict)
        #expect(takeover?.detail.contains("different identity resolving key") == true)
        // No IRK where there was one (and the reverse) is a different IRK too.
        #expect(policy.replacementRefusal(of: Self.bond(), by: Self.bond(irk: nil), peer: Self.impostor)?.reason == .identityConflict)
        #expect(policy.replacementRefusal(of: Self.bond(irk: nil), by: Self.bond(), peer: Self.impostor)?.reason == .identityConflict)
        // A bonded device claiming another identity.
        let moved = Self.bond(identity: IdentityAddress(address: BluetoothAddress("C0:00:00:00:00:01")!, type: .random))
        #expect(policy.replacementRefusal(of: Self.bond(), by: moved, peer: Self.accessory.address)?.reason == .identityConflict)
        configuration.repairing = [Self.accessory.address]
        let repairing = configuration.policy
        #expect(repairing.replacementRefusal(of: Self.bond(authenticated: true), by: Self.bond(irk: Self.otherIRK), peer: Self.impostor) == nil)
    }

    @Test("what is stored: only when both sides set the bonding flags")
    func storage() {
        func features(_ authentication: AuthenticationRequirements) -> PairingFeatures {
            PairingFeatures(ioCapability: .noInputNoOutput, authentication: authentication, initiatorKeys: [], responderKeys: [])
        }
        #expect(PairingPolicy.keepsKeys(request: features([.bonding]), response: features([.bonding, .secureConnections])))
        #expect(!PairingPolicy.keepsKeys(request: features([.bonding]), response: features([.secureConnections])))
        #expect(!PairingPolicy.keepsKeys(request: features([]), response: features([.bonding])))
        // Bonding flags 0b11 are reserved, not "bonding".
        #expect(!PairingPolicy.keepsKeys(request: features(AuthenticationRequirements(rawValue: 0x03)), response: features([.bonding])))
    }

    @Test("the response's key distribution must be a subset of the request's")
    func keyDistributionSubset() {
        let request = PairingFeatures(ioCapability: .noInputNoOutput, authentication: [.bonding],
                                      initiatorKeys: [.encryptionKey, .identityKey], responderKeys: [.encryptionKey, .identityKey])
        var response = request
        response.initiatorKeys = [.identityKey]
        #expect(PairingPolicy.keyDistributionIsSubset(request: request, response: response))
        response.initiatorKeys = [.identityKey, .signingKey]
        #expect(!PairingPolicy.keyDistributionIsSubset(request: request, response: response))
        response.initiatorKeys = []
        response.responderKeys = [.linkKey]
        #expect(!PairingPolicy.keyDistributionIsSubset(request: request, response: response))
    }

    @Test("the debug key is recognised and refused unless allowed; the minimum key size is 16 in SC-only mode")
    func debugKeyAndKeySize() {
        let debug = PairingKeyPair.debug()
        #expect(PairingPolicy.isDebugKey(x: debug.x, y: debug.y))
        let fresh = PairingKeyPair()
        #expect(!PairingPolicy.isDebugKey(x: fresh.x, y: fresh.y))
        var configuration = SecurityConfiguration()
        let refusal = configuration.policy.debugKeyRefusal(peer: Self.impostor)
        #expect(refusal?.reason == .debugKey && refusal?.action.contains("--allow-debug-keys") == true)
        configuration.allowsDebugKeys = true
        #expect(configuration.policy.debugKeyRefusal(peer: Self.impostor) == nil)

        var keySize = SecurityConfiguration(minimumKeySize: 10)
        #expect(keySize.policy.minimumKeySize == 10)
        keySize.secureConnectionsOnly = true
        #expect(keySize.policy.minimumKeySize == 16)
    }

    @Test("a Security Request: nothing, encrypt or pair, by what the bond gives, what it asks for and what a pairing could give")
    func securityRequests() {
        let policy = SecurityConfiguration(ioCapability: .keyboardDisplay).policy
        #expect(policy.answer(securityRequest: [.bonding], bond: nil, encrypted: false) == .pair)
        #expect(policy.answer(securityRequest: [.bonding], bond: Self.bond(), encrypted: false) == .encrypt)
        #expect(policy.answer(securityRequest: [.bonding], bond: Self.bond(), encrypted: true) == .nothing)
        // MITM asked, the bond is Just Works: pair (with MITM), whether encrypted or not.
        #expect(policy.answer(securityRequest: [.bonding, .mitm], bond: Self.bond(), encrypted: true) == .pair)
        #expect(policy.answer(securityRequest: [.bonding, .mitm], bond: Self.bond(authenticated: true), encrypted: false) == .encrypt)
        // Secure Connections asked, the bond is legacy.
        #expect(policy.answer(securityRequest: [.bonding, .secureConnections], bond: Self.bond(secureConnections: false),
                              encrypted: false) == .pair)
        // A host with no display or keyboard cannot give MITM protection: it uses the bond.
        let unattended = SecurityConfiguration(ioCapability: .noInputNoOutput).policy
        #expect(!unattended.canProtectAgainstMITM && policy.canProtectAgainstMITM)
        #expect(unattended.answer(securityRequest: [.bonding, .mitm], bond: Self.bond(), encrypted: false) == .encrypt)
        #expect(unattended.answer(securityRequest: [.bonding, .mitm], bond: nil, encrypted: false) == .pair)
    }

    @Test("Repeated Attempts: exponential per peer identity, reset by a success and by a long quiet")
    func repeatedAttempts() {
        var configuration = SecurityConfiguration()
        configuration.waitingInterval = .seconds(2)
        configuration.maximumWaitingInterval = .seconds(16)
        let policy = configuration.policy
        #expect(policy.waitingInterval(afterFailures: 0) == .zero)
        #expect((1...6).map { policy.waitingInterval(afterFailures: $0) } == [.seconds(2), .seconds(4), .seconds(8), .seconds(16), .seconds(16), .seconds(16)])
        #expect(policy.waitingInterval(afterFailures: 1000) == .seconds(16))

        let attempts = RepeatedAttempts()
        let start = ContinuousClock.now
        let other = IdentityAddress(address: Self.impostor, type: .random)
        #expect(attempts.waiting(Self.accessory, policy: policy, now: start) == nil)
        #expect(attempts.failed(Self.accessory, policy: policy, now: start) == .seconds(2))
        #expect(attempts.waiting(Self.accessory, policy: policy, now: start + .seconds(1))?.remaining == .seconds(1))
        #expect(attempts.waiting(other, policy: policy, now: start + .seconds(1)) == nil, "per peer identity")
        #expect(attempts.waiting(Self.accessory, policy: policy, now: start + .seconds(2)) == nil)
        #expect(attempts.failed(Self.accessory, policy: policy, now: start + .seconds(3)) == .seconds(4))
        #expect(attempts.failed(Self.accessory, policy: policy, now: start + .seconds(8)) == .seconds(8))
        #expect(attempts.waiting(Self.accessory, policy: policy, now: start + .seconds(9))?.failures == 3)
        attempts.succeeded(Self.accessory)
        #expect(attempts.failures(of: Self.accessory, policy: policy, now: start + .seconds(9)) == 0)
        // After the interval ended and the maximum passed without a failure: from the start again.
        attempts.failed(Self.accessory, policy: policy, now: start)
        attempts.failed(Self.accessory, policy: policy, now: start)
        #expect(attempts.failures(of: Self.accessory, policy: policy, now: start + .seconds(3)) == 2)
        #expect(attempts.failures(of: Self.accessory, policy: policy, now: start + .seconds(4 + 16)) == 0)
        #expect(attempts.failed(Self.accessory, policy: policy, now: start + .seconds(4 + 16)) == .seconds(2))
    }

    @Test("pairings per connection: the peer may cause two, then it is refused with Repeated Attempts")
    func pairingsPerConnection() {
        let policy = SecurityConfiguration().policy
        #expect(policy.peerMayPair(afterStarting: 0) && policy.peerMayPair(afterStarting: 1))
        #expect(!policy.peerMayPair(afterStarting: 2))
        #expect(policy.tooManyPairingsRefusal(peer: Self.impostor).sent == .repeatedAttempts)
        let waiting = policy.repeatedAttemptsRefusal(peer: Self.impostor, failures: 1, remaining: .milliseconds(1500))
        #expect(waiting.retryAfter == .milliseconds(1500) && waiting.detail.contains("1.5 s") && waiting.sent == .repeatedAttempts)
        #expect(SecurityError.refused(waiting).code == "repeated_attempts")
    }

    @Test("confirm and check values are compared in constant time; lengths are public")
    func constantTime() {
        #expect(SecurityToolbox.constantTimeEqual([1, 2, 3], [1, 2, 3]))
        #expect(!SecurityToolbox.constantTimeEqual([1, 2, 3], [1, 2, 4]))
        #expect(!SecurityToolbox.constantTimeEqual([1, 2, 3], [1, 2]))
        #expect(SecurityToolbox.constantTimeEqual([], []))
    }

    @Test("a resolvable private address's random part is never all 0 or all 1 (Vol 6 Part B 1.3.2.2)")
    func rpaRandomPart() {
        let irk = Self.irk
        // A generator that first returns the forbidden values, then a valid one.
        let values: [[UInt8]] = [[0x00, 0x00, 0x00], [0xFF, 0xFF, 0xFF], [0x3F, 0xFF, 0xFF], [0x12, 0x34, 0x56]]
        final class Source: @unchecked Sendable { var index = 0 }
        let source = Source()
        let address = ResolvablePrivateAddress.generate(with: irk) { _ in
            defer { source.index += 1 }
            return values[source.index]
        }
        #expect(source.index == 4, "the all-0 and all-1 random parts were drawn again")
        #expect(Array(address.bytes.prefix(3)) == [0x52, 0x34, 0x56])
        #expect(ResolvablePrivateAddress.resolves(address, with: irk))
        for _ in 0..<200 {
            let random = ResolvablePrivateAddress.generate(with: irk).bytes
            let bits = UInt32(random[0] & 0x3F) << 16 | UInt32(random[1]) << 8 | UInt32(random[2])
            #expect(random[0] & 0xC0 == 0x40 && bits != 0 && bits != 0x3F_FFFF)
        }
    }
}
