import FuzzSupport
import FuzzLowEnergyCommon
import LowEnergy

/// SMP PDUs from the peer (L2CAP channel 6): `SMPPDU(decoding:)` and the pairing state machine
/// (`PairingSession`, both roles) fed a sequence of them, with the user's answers and the
/// encryption outcome in between.
///
/// Input: 1 control byte (bit 0: responder, bit 1: Secure Connections only, bits 2-3: IO
/// capability), then PDUs, each `[length]` + bytes, and after each one a byte of the user's
/// answer (bit 0: passkey entered, bit 1: number confirmed, bit 2: encryption changed).
/// Invariants: a decoded PDU re-encodes to its bytes; a finished session takes no more input
/// (answers nothing).
@main enum FuzzSMP: FuzzTarget {
    static var seeds: [[UInt8]] {
        let pdus = LowEnergySeeds.smp
        return [0x00, 0x01, 0x06].map { control in
            [control] + pdus.flatMap { [UInt8($0.count)] + $0 + [0x07] }
        } + pdus.map { [0x00, UInt8($0.count)] + $0 }
    }

    static let keyPair = PairingKeyPair.debug()
    static let central = IdentityAddress(address: BluetoothAddress("C0:11:22:33:44:55")!, type: .random)
    static let peripheral = IdentityAddress(address: BluetoothAddress("F0:F1:F2:F3:F4:F5")!, type: .random)

    static func fuzz(_ input: [UInt8]) {
        var reader = FuzzInput(input)
        let control = reader.byte()
        let responder = control & 1 == 1
        var configuration = SecurityConfiguration()
        configuration.secureConnectionsOnly = control & 2 != 0
        configuration.ioCapability = IOCapability(rawValue: (control >> 2) & 0x03)
        var session = PairingSession(
            role: responder ? .responder : .initiator, configuration: configuration,
            localAddress: responder ? peripheral : central, peerAddress: responder ? central : peripheral,
            localIdentity: nil, keyPair: keyPair, random: { Array(repeating: 0x5A, count: $0) })
        if !responder { _ = session.start() }
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
            if answer & 1 != 0 { _ = session.passkeyEntered(123_456) }
            if answer & 2 != 0 { _ = session.numberConfirmed(true) }
            if answer & 4 != 0 { _ = session.encryptionChanged(success: true, keySize: 16) }
        }
    }
}
