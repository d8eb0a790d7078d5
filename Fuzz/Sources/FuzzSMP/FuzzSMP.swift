import FuzzSupport
import FuzzLowEnergyCommon
import LowEnergy

/// SMP PDUs from the peer (L2CAP channel 6): `SMPPDU(decoding:)` and the pairing state machine
/// (`PairingSession`, both roles) fed a sequence of them, with the user's answers and the
/// encryption outcome in between.
///
/// Input: 1 control byte (bit 0: responder, bit 1: Secure Connections only, bits 2-3: IO
/// capability, bit 4: debug keys allowed, bit 5: an authenticated bond is stored for the peer),
/// then PDUs, each `[length]` + bytes, and after each one a byte of the user's and the host's
/// answers (bit 0: passkey entered, bit 1: number confirmed, bit 2: encryption changed, bit 3:
/// encryption failed (0x3D), bit 4: the peer's keys accepted, bit 5: the peer's keys refused).
/// Invariants: a decoded PDU re-encodes to its bytes; a finished session takes no more input
/// (answers nothing); the host is asked to check the peer's keys at most once, and a pairing
/// completes only after it accepted them; a refused pairing never completes.
@main enum FuzzSMP: FuzzTarget {
    static var seeds: [[UInt8]] {
        let pdus = LowEnergySeeds.smp
        // Controls: initiator, responder, SC-only with a display; debug keys allowed; a stored
        // bond (responder). Answers: passkey, comparison, encryption, the peer's keys accepted.
        return [0x00, 0x01, 0x06, 0x10, 0x21].map { control in
            [control] + pdus.flatMap { [UInt8($0.count)] + $0 + [0x17] }
        } + pdus.map { [0x00, UInt8($0.count)] + $0 }
    }

    static let keyPair = PairingKeyPair.debug()
    static let central = IdentityAddress(address: BluetoothAddress("C0:11:22:33:44:55")!, type: .random)
    static let peripheral = IdentityAddress(address: BluetoothAddress("F0:F1:F2:F3:F4:F5")!, type: .random)
    static let storedBond = Bond(
        peerIdentity: peripheral, peerLongTermKey: LongTermKey(key: SecurityKey([UInt8](repeating: 0x11, count: 16))!),
        localLongTermKey: nil, peerIRK: SecurityKey([UInt8](repeating: 0x22, count: 16)), keySize: 16, authenticated: true,
        secureConnections: true)
    static let refusal = PairingRefusal(reason: .identityConflict, peer: peripheral.address, detail: "fuzz", action: "fuzz",
                                        sent: .authenticationRequirements)

    static func fuzz(_ input: [UInt8]) {
        var reader = FuzzInput(input)
        let control = reader.byte()
        let responder = control & 1 == 1
        var configuration = SecurityConfiguration()
        configuration.secureConnectionsOnly = control & 2 != 0
        configuration.ioCapability = IOCapability(rawValue: (control >> 2) & 0x03)
        configuration.allowsDebugKeys = control & 0x10 != 0
        var session = PairingSession(
            role: responder ? .responder : .initiator, configuration: configuration,
            localAddress: responder ? peripheral : central, peerAddress: responder ? central : peripheral,
            localIdentity: nil, existingBond: control & 0x20 != 0 ? storedBond : nil, keyPair: keyPair,
            random: { Array(repeating: 0x5A, count: $0) })
        var checks = Checks()
        if !responder { checks.see(session.start()) }
        while reader.remaining > 0 {
            let bytes = reader.take(Int(reader.byte()))
            let answer = reader.byte()
            guard let pdu = try? SMPPDU(decoding: bytes) else { continue }
            FuzzCheck.require(pdu.bytes == bytes, "\(pdu) does not re-encode to its bytes")
            let wasFinished = session.isFinished
            let actions = session.receive(pdu)
            if wasFinished, case .pairingFailed = pdu {} else if wasFinished {
                FuzzCheck.require(actions.isEmpty, "a finished session answered \(pdu) with \(actions)")
            }
            checks.see(actions)
            if answer & 1 != 0 { checks.see(session.passkeyEntered(123_456)) }
            if answer & 2 != 0 { checks.see(session.numberConfirmed(true)) }
            if answer & 4 != 0 { checks.see(session.encryptionChanged(success: true, keySize: 16)) }
            if answer & 8 != 0 { checks.see(session.encryptionChanged(status: HCIStatus(rawValue: 0x3D))) }
            if answer & 0x10 != 0 {
                checks.accepted = checks.accepted || checks.asked > 0
                checks.see(session.peerKeysVerified(nil))
            }
            if answer & 0x20 != 0 {
                checks.refused = checks.refused || (checks.asked > 0 && !checks.accepted)
                checks.see(session.peerKeysVerified(refusal))
            }
        }
    }

    /// What the session asked and said so far.
    struct Checks {
        var asked = 0
        var accepted = false
        var refused = false

        mutating func see(_ actions: [PairingSession.Action]) {
            for action in actions {
                switch action {
                case .verifyPeerKeys:
                    asked += 1
                    FuzzCheck.require(asked == 1, "the host was asked to check the peer's keys twice")
                case .completed:
                    FuzzCheck.require(accepted && !refused, "a pairing completed without the host accepting the peer's keys")
                default:
                    break
                }
            }
        }
    }
}
