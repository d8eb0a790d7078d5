import FuzzLowEnergyCommon
import FuzzSupport
@testable import LowEnergy

/// LE signaling C-frames from the peer (L2CAP channel 5): `LESignaling.handle`.
///
/// Input: the C-frame payload (code, identifier, length, data).
/// Invariants: every reply is a well-formed signaling packet (its length field matches) with the
/// request's identifier; accepted connection parameters are valid.
@main enum FuzzL2CAPSignaling: FuzzTarget {
    static let seeds: [[UInt8]] = LowEnergySeeds.signaling

    static func fuzz(_ input: [UInt8]) {
        let reply: [UInt8]
        switch LESignaling.handle(input) {
        case .ignore:
            return
        case .reply(let bytes):
            reply = bytes
        case .acceptParameters(let bytes, let parameters):
            FuzzCheck.require(parameters.validationProblem == nil, "accepted invalid parameters \(parameters)")
            reply = bytes
        }
        FuzzCheck.require(reply.count >= 4 && Int(reply[2]) | Int(reply[3]) << 8 == reply.count - 4, "malformed reply \(reply)")
        FuzzCheck.require(input.count >= 2 && reply[1] == input[1], "reply \(reply) does not carry the identifier of \(input)")
    }
}
