import NearbyBase

/// A Security Manager Protocol PDU (Vol 3 Part H 3), carried on L2CAP fixed channel 6.
///
/// Keys, nonces, confirm values and public-key coordinates are held most significant byte
/// first (the specification's notation, as ``SecurityToolbox`` takes them); on the wire they
/// are least significant byte first, and ``bytes`` / ``init(decoding:)`` convert.
public enum SMPPDU: Sendable, Hashable, CustomStringConvertible {
    /// 0x01 Pairing Request (initiator → responder).
    case pairingRequest(PairingFeatures)
    /// 0x02 Pairing Response.
    case pairingResponse(PairingFeatures)
    /// 0x03 Pairing Confirm (16 bytes).
    case pairingConfirm([UInt8])
    /// 0x04 Pairing Random (16 bytes).
    case pairingRandom([UInt8])
    /// 0x05 Pairing Failed.
    case pairingFailed(PairingFailureReason)
    /// 0x06 Encryption Information: a legacy LTK (16 bytes).
    case encryptionInformation(ltk: [UInt8])
    /// 0x07 Central Identification: EDIV and Rand of that LTK.
    case centralIdentification(ediv: UInt16, rand: UInt64)
    /// 0x08 Identity Information: the IRK (16 bytes).
    case identityInformation(irk: [UInt8])
    /// 0x09 Identity Address Information.
    case identityAddressInformation(type: BluetoothAddressType, address: BluetoothAddress)
    /// 0x0A Signing Information: the CSRK (16 bytes).
    case signingInformation(csrk: [UInt8])
    /// 0x0B Security Request (responder → initiator).
    case securityRequest(AuthenticationRequirements)
    /// 0x0C Pairing Public Key: X and Y, 32 bytes each.
    case pairingPublicKey(x: [UInt8], y: [UInt8])
    /// 0x0D Pairing DHKey Check (16 bytes).
    case pairingDHKeyCheck([UInt8])
    /// 0x0E Keypress Notification.
    case keypressNotification(UInt8)

    /// The command code.
    public var code: UInt8 {
        switch self {
        case .pairingRequest: return 0x01
        case .pairingResponse: return 0x02
        case .pairingConfirm: return 0x03
        case .pairingRandom: return 0x04
        case .pairingFailed: return 0x05
        case .encryptionInformation: return 0x06
        case .centralIdentification: return 0x07
        case .identityInformation: return 0x08
        case .identityAddressInformation: return 0x09
        case .signingInformation: return 0x0A
        case .securityRequest: return 0x0B
        case .pairingPublicKey: return 0x0C
        case .pairingDHKeyCheck: return 0x0D
        case .keypressNotification: return 0x0E
        }
    }

    /// The PDU on the wire: code, then the parameters least significant byte first.
    public var bytes: [UInt8] {
        var bytes: [UInt8] = [code]
        switch self {
        case .pairingRequest(let features), .pairingResponse(let features):
            bytes += features.bytes
        case .pairingConfirm(let value), .pairingRandom(let value), .encryptionInformation(let value),
             .identityInformation(let value), .signingInformation(let value), .pairingDHKeyCheck(let value):
            bytes += value.reversed()
        case .pairingFailed(let reason):
            bytes.append(reason.rawValue)
        case .centralIdentification(let ediv, let rand):
            bytes.appendLE(ediv)
            bytes.appendLE(rand)
        case .identityAddressInformation(let type, let address):
            bytes.append(type.rawValue)
            bytes += address.littleEndianBytes
        case .securityRequest(let authentication):
            bytes.append(authentication.rawValue)
        case .pairingPublicKey(let x, let y):
            bytes += x.reversed()
            bytes += y.reversed()
        case .keypressNotification(let kind):
            bytes.append(kind)
        }
        return bytes
    }

    /// Decodes one PDU.
    /// - Throws: ``SecurityError/invalidPDU(detail:)`` for an empty PDU, an unknown code
    ///   (the caller answers Command Not Supported) or a wrong length (Invalid Parameters).
    public init(decoding pdu: [UInt8]) throws(SecurityError) {
        guard let code = pdu.first else { throw .invalidPDU(detail: "empty SMP PDU") }
        let body = Array(pdu.dropFirst())
        func need(_ count: Int, _ name: String) throws(SecurityError) {
            guard body.count == count else {
                // Key-carrying PDUs are never dumped, even malformed.
                let bytes = [0x06, 0x08, 0x0A].contains(code) ? "" : ": \(hexDump(pdu))"
                throw .invalidPDU(detail: "\(name) with \(body.count) parameter bytes (expected \(count))\(bytes)")
            }
        }
        switch code {
        case 0x01, 0x02:
            try need(6, code == 1 ? "Pairing Request" : "Pairing Response")
            var features = PairingFeatures(
                ioCapability: IOCapability(rawValue: body[0]),
                authentication: AuthenticationRequirements(rawValue: body[2]), maximumKeySize: body[3],
                initiatorKeys: KeyDistribution(rawValue: body[4]), responderKeys: KeyDistribution(rawValue: body[5]))
            features.oobDataFlag = body[1]
            self = code == 1 ? .pairingRequest(features) : .pairingResponse(features)
        case 0x03:
            try need(16, "Pairing Confirm")
            self = .pairingConfirm(body.reversed())
        case 0x04:
            try need(16, "Pairing Random")
            self = .pairingRandom(body.reversed())
        case 0x05:
            try need(1, "Pairing Failed")
            self = .pairingFailed(PairingFailureReason(rawValue: body[0]))
        case 0x06:
            try need(16, "Encryption Information")
            self = .encryptionInformation(ltk: body.reversed())
        case 0x07:
            try need(10, "Central Identification")
            var reader = ByteReader(body)
            self = .centralIdentification(ediv: reader.u16()!, rand: reader.u64()!)
        case 0x08:
            try need(16, "Identity Information")
            self = .identityInformation(irk: body.reversed())
        case 0x09:
            try need(7, "Identity Address Information")
            self = .identityAddressInformation(type: BluetoothAddressType(rawValue: body[0]),
                                               address: BluetoothAddress(littleEndian: body[1...])!)
        case 0x0A:
            try need(16, "Signing Information")
            self = .signingInformation(csrk: body.reversed())
        case 0x0B:
            try need(1, "Security Request")
            self = .securityRequest(AuthenticationRequirements(rawValue: body[0]))
        case 0x0C:
            try need(64, "Pairing Public Key")
            self = .pairingPublicKey(x: body[0..<32].reversed(), y: body[32..<64].reversed())
        case 0x0D:
            try need(16, "Pairing DHKey Check")
            self = .pairingDHKeyCheck(body.reversed())
        case 0x0E:
            try need(1, "Keypress Notification")
            self = .keypressNotification(body[0])
        default:
            throw .invalidPDU(detail: "unknown SMP command 0x\(hex(code))")
        }
    }

    /// The command's name; values are never included (they may be keys).
    public var description: String {
        switch self {
        case .pairingRequest(let features): return "Pairing Request (\(features))"
        case .pairingResponse(let features): return "Pairing Response (\(features))"
        case .pairingConfirm: return "Pairing Confirm"
        case .pairingRandom: return "Pairing Random"
        case .pairingFailed(let reason): return "Pairing Failed (\(reason))"
        case .encryptionInformation: return "Encryption Information"
        case .centralIdentification: return "Central Identification"
        case .identityInformation: return "Identity Information"
        case .identityAddressInformation(let type, let address): return "Identity Address Information (\(address), \(type))"
        case .signingInformation: return "Signing Information"
        case .securityRequest(let authentication): return "Security Request (AuthReq 0x\(hex(authentication.rawValue)))"
        case .pairingPublicKey: return "Pairing Public Key"
        case .pairingDHKeyCheck: return "Pairing DHKey Check"
        case .keypressNotification(let kind): return "Keypress Notification (\(kind))"
        }
    }
}
