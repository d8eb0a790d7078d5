import FuzzLowEnergyCommon
import FuzzSupport
@testable import LowEnergy

/// ATT PDUs from the peer: `ATTBearer.receive` (notifications, indications, the peer's requests,
/// responses) and `ATTResponse.decode` as the response to each kind of request the client sends.
///
/// Input: the PDU.
/// Invariants: the bearer answers a request with an Error Response or an MTU response naming it;
/// a decoded response is the one its opcode announces.
@main enum FuzzATT: FuzzTarget {
    static let seeds: [[UInt8]] = LowEnergySeeds.attPDUs

    static let requests: [ATTRequest] = [
        .exchangeMTU(clientMTU: 247), .findInformation(start: 1, end: 0xFFFF),
        .findByTypeValue(start: 1, end: 0xFFFF, type: 0x2800, value: [0x0D, 0x18]),
        .readByType(start: 1, end: 0xFFFF, type: .characteristicDeclaration), .read(handle: 3),
        .readBlob(handle: 3, offset: 22), .readByGroupType(start: 1, end: 0xFFFF, type: .primaryService),
        .write(handle: 3, value: [1, 0]),
    ]

    static func fuzz(_ input: [UInt8]) {
        let bearer = LowEnergySeeds.bearer()
        if let reply = bearer.receive(input), let first = input.first {
            FuzzCheck.require(!reply.isEmpty, "empty reply")
            FuzzCheck.require(
                reply == [0x1E] || reply[0] == 0x03 || (reply[0] == 0x01 && reply.count == 5 && reply[1] == first),
                "unexpected reply \(reply) to \(input)")
        }
        for request in requests {
            guard let response = try? ATTResponse.decode(input, for: request) else { continue }
            FuzzCheck.require(input.first == request.responseOpcode.rawValue, "\(response) decoded from another opcode")
        }
    }
}
