import LowEnergy
import Testing

/// Two pure pairing sessions (central and peripheral) against each other, in memory: every
/// method, key distribution both ways, and the failure paths. The Bumble suites run the same
/// code against another stack.
@Suite("Pairing session (in memory, both roles)")
struct PairingSessionTests {
    static let centralAddress = IdentityAddress(address: BluetoothAddress("C0:11:22:33:44:55")!, type: .random)
    static let peripheralAddress = IdentityAddress(address: BluetoothAddress("F0:F1:F2:F3:F4:F5")!, type: .random)
    static let centralIdentity = LocalIdentity(address: centralAddress, irk: SecurityKey(hex: "000102030405060708090a0b0c0d0e0f")!)
    static let peripheralIdentity = LocalIdentity(address: peripheralAddress, irk: SecurityKey(hex: "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff")!)

    /// What happened in one run.
    struct Run {
        var centralBond: Bond?
        var peripheralBond: Bond?
        var centralMethod: PairingMethod?
        var centralError: SecurityError?
        var peripheralError: SecurityError?
        var displayed: [UInt32] = []
        var compared: [UInt32] = []
        var sent: [String] = []
        var encryptionKeys: [LongTermKey] = []
        /// The bonds each side asked its host to check (central first when both).
        var verified: [(central: Bool, bond: Bond)] = []
    }

    /// Runs a pairing. `passkeyTyped` maps the passkey shown (or agreed, when both type) to
    /// what the central's user types.
    /// `existing` is the bond the central has stored for the peripheral; `verify` is the
    /// central's host checking the keys the peripheral distributed (`nil`: accepted).
    static func pair(central: SecurityConfiguration, peripheral: SecurityConfiguration,
                     passkeyTyped: @escaping (UInt32?) -> UInt32? = { $0 },
                     centralAccepts: Bool = true, peripheralAccepts: Bool = true,
                     existing: Bond? = nil, peripheralKeyPair: PairingKeyPair? = nil,
                     peripheralDistributes identity: LocalIdentity? = nil,
                     verify: (Bond) -> PairingRefusal? = { _ in nil }) -> Run {
        var initiator = PairingSession(role: .initiator, configuration: central, localAddress: centralAddress,
                                       peerAddress: peripheralAddress, localIdentity: centralIdentity, existingBond: existing)
        var responder = PairingSession(role: .responder, configuration: peripheral, localAddress: peripheralAddress,
                                       peerAddress: centralAddress, localIdentity: identity ?? peripheralIdentity,
                                       keyPair: peripheralKeyPair)
        var run = Run()
        // (from the initiator?, action)
        var queue: [(Bool, PairingSession.Action)] = initiator.start().map { (true, $0) }
        var providedKey: LongTermKey?
        var shown: UInt32?
        var waiting: Set<Bool> = []  // sides waiting for their user to type
        func enter(_ atInitiator: Bool, _ value: UInt32?) {
            if atInitiator {
                queue += initiator.passkeyEntered(passkeyTyped(value)).map { (true, $0) }
            } else {
                queue += responder.passkeyEntered(value).map { (false, $0) }
            }
        }
        var steps = 0
        while !queue.isEmpty, steps < 1000 {
            steps += 1
            let (fromInitiator, action) = queue.removeFirst()
            switch action {
            case .send(let pdu):
                run.sent.append("\(fromInitiator ? "C" : "P"):\(pdu.code)")
                // Through the codec, as on the wire.
                let decoded = try! SMPPDU(decoding: pdu.bytes)
                if fromInitiator {
                    queue += responder.receive(decoded).map { (false, $0) }
                } else {
                    queue += initiator.receive(decoded).map { (true, $0) }
                }
            case .displayPasskey(let value):
                run.displayed.append(value)
                shown = value
                for side in waiting { enter(side, value) }
                waiting.removeAll()
            case .requestPasskey:
                if case .passkeyEntry(.bothInput)? = initiator.method {
                    enter(fromInitiator, 424_242)
                } else if let shown {
                    enter(fromInitiator, shown)
                } else {
                    waiting.insert(fromInitiator)
                }
            case .confirmNumber(let value):
                run.compared.append(value)
                if fromInitiator {
                    queue += initiator.numberConfirmed(centralAccepts).map { (true, $0) }
                } else {
                    queue += responder.numberConfirmed(peripheralAccepts).map { (false, $0) }
                }
            case .provideKey(let key):
                providedKey = key
            case .startEncryption(let key):
                run.encryptionKeys.append(key)
                let same = providedKey == key
                queue += responder.encryptionChanged(success: same).map { (false, $0) }
                queue += initiator.encryptionChanged(success: same).map { (true, $0) }
            case .verifyPeerKeys(let bond):
                run.verified.append((fromInitiator, bond))
                if fromInitiator {
                    queue += initiator.peerKeysVerified(verify(bond)).map { (true, $0) }
                } else {
                    queue += responder.peerKeysVerified(nil).map { (false, $0) }
                }
            case .completed(let bond, let method):
                if fromInitiator {
                    run.centralBond = bond
                    run.centralMethod = method
                } else {
                    run.peripheralBond = bond
                }
            case .failed(let error):
                if fromInitiator { run.centralError = error } else { run.peripheralError = error }
            }
        }
        return run
    }

    static func expectBonded(_ run: Run, method: PairingMethod, secureConnections: Bool, keySize: Int = 16) {
        #expect(run.centralError == nil)
        #expect(run.peripheralError == nil)
        #expect(run.centralMethod == method)
        guard let central = run.centralBond, let peripheral = run.peripheralBond else {
            Issue.record("pairing did not complete: \(run.sent)")
            return
        }
        // Each side learned the other's identity and IRK.
        #expect(central.peerIdentity == peripheralAddress)
        #expect(peripheral.peerIdentity == centralAddress)
        #expect(central.peerIRK == peripheralIdentity.irk)
        #expect(peripheral.peerIRK == centralIdentity.irk)
        #expect(central.secureConnections == secureConnections)
        #expect(central.authenticated == method.isAuthenticated)
        #expect(central.keySize == keySize)
        // The key the central encrypts with is the one the peripheral gives.
        #expect(central.peerLongTermKey != nil)
        #expect(central.peerLongTermKey == peripheral.localLongTermKey)
        if secureConnections {
            #expect(central.peerLongTermKey?.ediv == 0 && central.peerLongTermKey?.rand == 0)
            #expect(run.encryptionKeys.first == central.peerLongTermKey)
        } else {
            // Legacy: encrypted first with the STK, the distributed LTK differs from it.
            #expect(run.encryptionKeys.first != central.peerLongTermKey)
        }
        let significant = central.peerLongTermKey!.key.bytes
        #expect(significant.prefix(16 - keySize).allSatisfy { $0 == 0 })
    }

    @Test("LE Secure Connections, Just Works (NoInputNoOutput on both sides)")
    func scJustWorks() {
        let run = Self.pair(central: SecurityConfiguration(), peripheral: SecurityConfiguration())
        Self.expectBonded(run, method: .justWorks, secureConnections: true)
        #expect(run.sent.filter { $0.hasSuffix(":12") }.count == 2)  // one Public Key each way
    }

    @Test("LE Secure Connections, Numeric Comparison: both sides see the same number")
    func scNumericComparison() {
        let run = Self.pair(central: SecurityConfiguration(ioCapability: .keyboardDisplay, requireMITM: true),
                            peripheral: SecurityConfiguration(ioCapability: .displayYesNo))
        Self.expectBonded(run, method: .numericComparison, secureConnections: true)
        #expect(run.compared.count == 2)
        #expect(Set(run.compared).count == 1)
        #expect(run.compared.allSatisfy { $0 <= 999_999 })
    }

    @Test("Numeric Comparison rejected by either user fails with 0x0C")
    func scNumericComparisonRejected() {
        let byCentral = Self.pair(central: SecurityConfiguration(ioCapability: .keyboardDisplay, requireMITM: true),
                                  peripheral: SecurityConfiguration(ioCapability: .displayYesNo), centralAccepts: false)
        #expect(byCentral.centralBond == nil)
        guard case .userRejected? = byCentral.centralError else {
            Issue.record("expected userRejected, got \(String(describing: byCentral.centralError))")
            return
        }
        #expect(byCentral.peripheralError == .pairingFailedByPeer(reason: .numericComparisonFailed))
        let byPeripheral = Self.pair(central: SecurityConfiguration(ioCapability: .keyboardDisplay, requireMITM: true),
                                     peripheral: SecurityConfiguration(ioCapability: .displayYesNo), peripheralAccepts: false)
        #expect(byPeripheral.centralError == .pairingFailedByPeer(reason: .numericComparisonFailed))
    }

    @Test("LE Secure Connections, Passkey Entry: peripheral displays, central types (20 rounds)")
    func scPasskeyPeripheralDisplays() {
        let run = Self.pair(central: SecurityConfiguration(ioCapability: .keyboardOnly, requireMITM: true),
                            peripheral: SecurityConfiguration(ioCapability: .displayOnly))
        Self.expectBonded(run, method: .passkeyEntry(.responderDisplays), secureConnections: true)
        #expect(run.displayed.count == 1)
        #expect(run.sent.filter { $0 == "C:3" }.count == 20)
        #expect(run.sent.filter { $0 == "P:4" }.count == 20)
    }

    @Test("LE Secure Connections, Passkey Entry: central displays, peripheral types; and both type")
    func scPasskeyOtherWays() {
        let centralDisplays = Self.pair(central: SecurityConfiguration(ioCapability: .displayOnly, requireMITM: true),
                                        peripheral: SecurityConfiguration(ioCapability: .keyboardOnly))
        Self.expectBonded(centralDisplays, method: .passkeyEntry(.initiatorDisplays), secureConnections: true)
        let bothType = Self.pair(central: SecurityConfiguration(ioCapability: .keyboardOnly, requireMITM: true),
                                 peripheral: SecurityConfiguration(ioCapability: .keyboardOnly))
        Self.expectBonded(bothType, method: .passkeyEntry(.bothInput), secureConnections: true)
    }

    @Test("a wrong passkey fails with Confirm Value Failed, on the side that detects it")
    func scWrongPasskey() {
        let run = Self.pair(central: SecurityConfiguration(ioCapability: .keyboardOnly, requireMITM: true),
                            peripheral: SecurityConfiguration(ioCapability: .displayOnly),
                            passkeyTyped: { ($0! + 1) % 1_000_000 })
        #expect(run.centralBond == nil && run.peripheralBond == nil)
        #expect(run.peripheralError != nil || run.centralError != nil)
        let reasons = [run.centralError, run.peripheralError].compactMap { $0 }
        #expect(reasons.contains(.pairingFailedByPeer(reason: .confirmValueFailed)))
    }

    @Test("a cancelled passkey entry fails with Passkey Entry Failed")
    func passkeyCancelled() {
        let run = Self.pair(central: SecurityConfiguration(ioCapability: .keyboardOnly, requireMITM: true),
                            peripheral: SecurityConfiguration(ioCapability: .displayOnly), passkeyTyped: { _ in nil })
        #expect(run.peripheralError == .pairingFailedByPeer(reason: .passkeyEntryFailed))
    }

    @Test("legacy Just Works and legacy Passkey Entry, LTK + EDIV/Rand distributed")
    func legacy() {
        let run = Self.pairLegacy(central: SecurityConfiguration(), peripheralIO: .noInputNoOutput)
        Self.expectBonded(run, method: .justWorks, secureConnections: false)
        let passkey = Self.pairLegacy(central: SecurityConfiguration(ioCapability: .keyboardDisplay, requireMITM: true),
                                      peripheralIO: .displayOnly)
        Self.expectBonded(passkey, method: .passkeyEntry(.responderDisplays), secureConnections: false)
        let wrong = Self.pairLegacy(central: SecurityConfiguration(ioCapability: .keyboardDisplay, requireMITM: true),
                                    peripheralIO: .displayOnly, passkeyTyped: { $0! ^ 1 })
        #expect(wrong.centralError == .pairingFailedByPeer(reason: .confirmValueFailed))
    }

    @Test("Secure Connections only: a legacy peripheral is refused with a clear error")
    func secureConnectionsOnly() {
        var central = SecurityConfiguration()
        central.secureConnectionsOnly = true
        let run = Self.pairLegacy(central: central, peripheralIO: .noInputNoOutput)
        guard case .securityImpossible? = run.centralError else {
            Issue.record("expected securityImpossible, got \(String(describing: run.centralError))")
            return
        }
        #expect(run.peripheralError == .pairingFailedByPeer(reason: .authenticationRequirements))
    }

    @Test("MITM required but the accessory has no IO: security impossible, said before any key is made")
    func mitmImpossible() {
        let run = Self.pair(central: SecurityConfiguration(ioCapability: .keyboardDisplay, requireMITM: true),
                            peripheral: SecurityConfiguration(ioCapability: .noInputNoOutput))
        guard case .securityImpossible(let detail)? = run.centralError else {
            Issue.record("expected securityImpossible, got \(String(describing: run.centralError))")
            return
        }
        #expect(detail.contains("NoInputNoOutput"))
        #expect(!run.sent.contains("C:12"))
    }

    @Test("key size: the smaller maximum wins and masks the key; below the minimum fails with 0x06")
    func keySize() {
        var small = SecurityConfiguration()
        small.maximumKeySize = 10
        small.minimumKeySize = 7
        let run = Self.pair(central: SecurityConfiguration(), peripheral: small)
        Self.expectBonded(run, method: .justWorks, secureConnections: true, keySize: 10)
        var strict = SecurityConfiguration()
        strict.minimumKeySize = 16
        let refused = Self.pair(central: strict, peripheral: small)
        #expect(refused.centralError == .keySizeTooShort(size: 10, minimum: 16))
        #expect(refused.peripheralError == .pairingFailedByPeer(reason: .encryptionKeySize))
    }

    @Test("a reflected public key and a point off the curve are refused")
    func badPublicKeys() {
        var session = PairingSession(role: .initiator, configuration: SecurityConfiguration(), localAddress: Self.centralAddress,
                                     peerAddress: Self.peripheralAddress, localIdentity: nil, keyPair: .debug())
        _ = session.start()
        _ = session.receive(.pairingResponse(PairingFeatures(ioCapability: .noInputNoOutput, authentication: [.bonding, .secureConnections],
                                                             initiatorKeys: [], responderKeys: [])))
        let debug = PairingKeyPair.debug()
        let reflected = session.receive(.pairingPublicKey(x: debug.x, y: debug.y))
        #expect(reflected.contains { if case .send(.pairingFailed(.invalidParameters)) = $0 { return true }; return false })
        var other = PairingSession(role: .responder, configuration: SecurityConfiguration(), localAddress: Self.peripheralAddress,
                                   peerAddress: Self.centralAddress, localIdentity: nil)
        _ = other.receive(.pairingRequest(PairingFeatures(ioCapability: .noInputNoOutput, authentication: [.bonding, .secureConnections],
                                                          initiatorKeys: [], responderKeys: [])))
        var y = debug.y
        y[0] ^= 0x55
        let offCurve = other.receive(.pairingPublicKey(x: debug.x, y: y))
        #expect(offCurve.contains { if case .failed(.invalidPublicKey) = $0 { return true }; return false })
    }

    @Test("an out-of-order PDU ends the pairing with a Pairing Failed, never a hang")
    func outOfOrder() {
        var session = PairingSession(role: .initiator, configuration: SecurityConfiguration(), localAddress: Self.centralAddress,
                                     peerAddress: Self.peripheralAddress, localIdentity: nil)
        _ = session.start()
        let actions = session.receive(.pairingRandom([UInt8](repeating: 1, count: 16)))
        #expect(actions.contains { if case .send(.pairingFailed(.unspecifiedReason)) = $0 { return true }; return false })
        #expect(session.isFinished)
        #expect(session.receive(.pairingRandom([UInt8](repeating: 1, count: 16))).isEmpty)
    }

    @Test("SMP PDUs round-trip through the codec; malformed ones are refused with a reason")
    func codec() throws {
        let pdus: [SMPPDU] = [
            .pairingRequest(PairingFeatures(ioCapability: .keyboardDisplay, authentication: [.bonding, .mitm, .secureConnections],
                                            initiatorKeys: [.encryptionKey, .identityKey], responderKeys: [.encryptionKey, .identityKey])),
            .pairingConfirm([UInt8](0..<16)), .pairingRandom([UInt8](16..<32)), .pairingFailed(.confirmValueFailed),
            .encryptionInformation(ltk: [UInt8](0..<16)), .centralIdentification(ediv: 0x1234, rand: 0x0102_0304_0506_0708),
            .identityInformation(irk: [UInt8](0..<16)),
            .identityAddressInformation(type: .random, address: BluetoothAddress("C0:11:22:33:44:55")!),
            .securityRequest([.bonding, .mitm]), .pairingPublicKey(x: [UInt8](0..<32), y: [UInt8](32..<64)),
            .pairingDHKeyCheck([UInt8](0..<16)), .keypressNotification(2),
        ]
        for pdu in pdus {
            #expect(try SMPPDU(decoding: pdu.bytes) == pdu)
        }
        // Wire layout: code, IO, OOB, AuthReq, key size, keys; values least significant first.
        #expect(pdus[0].bytes == [0x01, 0x04, 0x00, 0x0D, 0x10, 0x03, 0x03])
        #expect(SMPPDU.pairingConfirm([UInt8](0..<16)).bytes == [0x03] + (0..<16).reversed())
        #expect(SMPPDU.centralIdentification(ediv: 0x1234, rand: 1).bytes == [0x07, 0x34, 0x12, 1, 0, 0, 0, 0, 0, 0, 0])
        #expect(throws: SecurityError.self) { try SMPPDU(decoding: []) }
        #expect(throws: SecurityError.self) { try SMPPDU(decoding: [0x03, 0x00]) }
        #expect(throws: SecurityError.self) { try SMPPDU(decoding: [0x7F]) }
        // Descriptions never contain key material.
        #expect(!SMPPDU.encryptionInformation(ltk: [UInt8](repeating: 0xAB, count: 16)).description.lowercased().contains("ab"))
        #expect(SecurityKey([UInt8](repeating: 0xAB, count: 16))!.description == "‹key›")
    }
}

/// The pairing policy inside the session (issue 24): what is kept, the debug key, the key
/// distribution, key sizes, bonds that must not be replaced, the host's check of the peer's keys,
/// and the encryption outcome.
extension PairingSessionTests {
    @Test("No Bonding on one side: the pairing completes on both, its keys are not to be kept")
    func noBonding() {
        let run = Self.pair(central: SecurityConfiguration(), peripheral: SecurityConfiguration(bonding: false))
        #expect(run.centralError == nil && run.peripheralError == nil)
        let bond = run.centralBond
        #expect(bond?.persistent == false && bond?.peerLongTermKey != nil, "usable for this link, not stored")
        #expect(run.peripheralBond?.persistent == false, "the peripheral expects only the keys its response agreed: \(run.sent)")
        let bonded = Self.pair(central: SecurityConfiguration(), peripheral: SecurityConfiguration())
        #expect(bonded.centralBond?.persistent == true)
    }

    @Test("a peer with the debug public key is refused (0x03) unless allowed; allowed, the bond is unauthenticated")
    func debugKey() {
        let central = SecurityConfiguration(ioCapability: .keyboardDisplay, requireMITM: false)
        let peripheral = SecurityConfiguration(ioCapability: .displayYesNo, requireMITM: true)
        let refused = Self.pair(central: central, peripheral: peripheral, peripheralKeyPair: .debug())
        guard case .refused(let refusal)? = refused.centralError else {
            Issue.record("expected a refusal, got \(String(describing: refused.centralError))")
            return
        }
        #expect(refusal.reason == .debugKey)
        #expect(refused.peripheralError == .pairingFailedByPeer(reason: .authenticationRequirements))
        #expect(refused.centralBond == nil && refused.compared.isEmpty, "refused before the user is asked anything")

        var allowing = central
        allowing.allowsDebugKeys = true
        let accepted = Self.pair(central: allowing, peripheral: peripheral, peripheralKeyPair: .debug())
        #expect(accepted.centralMethod == .numericComparison)
        #expect(accepted.centralBond?.authenticated == false, "a debug-key pairing is never authenticated")
    }

    @Test("a Pairing Response asking for keys the request did not offer fails at once with Invalid Parameters")
    func extraKeyDistribution() {
        var session = PairingSession(role: .initiator, configuration: SecurityConfiguration(), localAddress: Self.centralAddress,
                                     peerAddress: Self.peripheralAddress, localIdentity: Self.centralIdentity)
        guard case .send(.pairingRequest(let request))? = session.start().first else {
            Issue.record("no Pairing Request")
            return
        }
        var response = request
        response.initiatorKeys.insert(.signingKey)
        let actions = session.receive(.pairingResponse(response))
        #expect(actions.contains { if case .send(.pairingFailed(.invalidParameters)) = $0 { return true }; return false })
        #expect(session.isFinished)
        guard case .failed(.pairingFailed(.invalidParameters, let detail))? = actions.last else {
            Issue.record("expected Invalid Parameters, got \(actions)")
            return
        }
        #expect(detail.contains("did not offer"))
    }

    @Test("Secure Connections Only mode needs a 16-byte key whatever the configured minimum")
    func secureConnectionsOnlyKeySize() {
        var central = SecurityConfiguration(minimumKeySize: 7)
        central.secureConnectionsOnly = true
        var peripheral = SecurityConfiguration()
        peripheral.maximumKeySize = 12
        let run = Self.pair(central: central, peripheral: peripheral)
        #expect(run.centralError == .keySizeTooShort(size: 12, minimum: 16))
        #expect(run.peripheralError == .pairingFailedByPeer(reason: .encryptionKeySize))
    }

    @Test("a stored authenticated bond is not replaced by Just Works: refused as soon as the method is known")
    func weakerThanStoredBond() {
        let stored = Bond(peerIdentity: Self.peripheralAddress, peerLongTermKey: nil, localLongTermKey: nil,
                          peerIRK: Self.peripheralIdentity.irk, keySize: 16, authenticated: true, secureConnections: true)
        let run = Self.pair(central: SecurityConfiguration(), peripheral: SecurityConfiguration(), existing: stored)
        #expect(run.centralError?.refusal?.reason == .weakerThanBond)
        #expect(!run.sent.contains("C:12"), "no public key sent: refused before any key was made")
        #expect(run.peripheralError == .pairingFailedByPeer(reason: .authenticationRequirements))
        var repairing = SecurityConfiguration()
        repairing.repairing = [Self.peripheralAddress.address]
        let repaired = Self.pair(central: repairing, peripheral: SecurityConfiguration(), existing: stored)
        #expect(repaired.centralBond != nil, "--repair replaces it")
    }

    @Test("the host checks the peer's keys before this side sends its own; a refusal ends the pairing, nothing completes")
    func hostChecksPeerKeys() {
        let accepted = Self.pair(central: SecurityConfiguration(), peripheral: SecurityConfiguration())
        let check = accepted.verified.first { $0.central }
        #expect(check?.bond.peerIRK == Self.peripheralIdentity.irk && check?.bond.peerIdentity == Self.peripheralAddress)
        // The central's identity keys (code 8 = Identity Information) go out only after the check.
        #expect(accepted.sent.contains("C:8"))

        let claimed = LocalIdentity(address: Self.peripheralAddress, irk: SecurityKey(hex: "99999999999999999999999999999999")!)
        let refused = Self.pair(central: SecurityConfiguration(), peripheral: SecurityConfiguration(), peripheralDistributes: claimed) { bond in
            SecurityConfiguration().policy.replacementRefusal(
                of: Bond(peerIdentity: Self.peripheralAddress, peerLongTermKey: nil, localLongTermKey: nil,
                         peerIRK: Self.peripheralIdentity.irk, keySize: 16, authenticated: false, secureConnections: true),
                by: bond, peer: Self.peripheralAddress.address)
        }
        #expect(refused.centralError?.refusal?.reason == .identityConflict)
        #expect(refused.centralBond == nil && refused.peripheralBond == nil)
        #expect(!refused.sent.contains("C:8"), "this host's keys were not sent")
        #expect(refused.peripheralError == .pairingFailedByPeer(reason: .authenticationRequirements))
    }

    @Test("a failed encryption keeps the controller's status; keys after the check end the pairing")
    func encryptionStatusAndLateKeys() {
        var session = PairingSession(role: .initiator, configuration: SecurityConfiguration(), localAddress: Self.centralAddress,
                                     peerAddress: Self.peripheralAddress, localIdentity: nil)
        var peer = PairingSession(role: .responder, configuration: SecurityConfiguration(), localAddress: Self.peripheralAddress,
                                  peerAddress: Self.centralAddress, localIdentity: Self.peripheralIdentity)
        // Run the exchange up to the encryption.
        var toPeer = session.start()
        var encrypting = false
        for _ in 0..<20 where !encrypting {
            var back: [PairingSession.Action] = []
            for case .send(let pdu) in toPeer { back += peer.receive(pdu) }
            toPeer = []
            for case .send(let pdu) in back { toPeer += session.receive(pdu) }
            encrypting = toPeer.contains { if case .startEncryption = $0 { return true }; return false }
        }
        #expect(encrypting)
        var failing = session
        let failed = failing.encryptionChanged(status: HCIStatus(rawValue: 0x3D))
        guard case .failed(.encryptionFailed(let status))? = failed.first else {
            Issue.record("expected encryptionFailed, got \(failed)")
            return
        }
        #expect(status.rawValue == 0x3D, "the HCI status, not Authentication Failure")

        let actions = session.encryptionChanged(status: .success)
        #expect(actions.isEmpty, "waiting for the peripheral's keys")
        var keys = peer.encryptionChanged(status: .success)
        keys.removeAll { if case .send = $0 { return false }; return true }
        var asked: [PairingSession.Action] = []
        for case .send(let pdu) in keys { asked += session.receive(pdu) }
        #expect(asked.contains { if case .verifyPeerKeys = $0 { return true }; return false })
        let late = session.receive(.identityInformation(irk: [UInt8](repeating: 9, count: 16)))
        #expect(late.contains { if case .send(.pairingFailed(.unspecifiedReason)) = $0 { return true }; return false })
        #expect(session.peerKeysVerified(nil).isEmpty, "a failed pairing completes nothing")
    }
}

extension PairingSessionTests {
    /// A central against a peripheral that does not support Secure Connections (as a Bluetooth
    /// 4.0 accessory: its SC flag is clear).
    static func pairLegacy(central: SecurityConfiguration, peripheralIO: IOCapability,
                           passkeyTyped: @escaping (UInt32?) -> UInt32? = { $0 }) -> Run {
        var peripheral = SecurityConfiguration(ioCapability: peripheralIO)
        peripheral.secureConnectionsSupported = false
        return pair(central: central, peripheral: peripheral, passkeyTyped: passkeyTyped)
    }
}
