import NearbyBase

/// The LE signaling channel (fixed channel 5, Core Vol 3 Part A 4): what this central answers.
///
/// A peripheral may ask for new connection parameters with a Connection Parameter Update
/// Request; the central accepts valid ones (and then runs LE Connection Update) or rejects
/// invalid ones. LE credit-based connection requests are refused (no dynamic channels here);
/// any other request gets a Command Reject so the peer never waits for a timeout.
enum LESignaling {
    static let commandReject: UInt8 = 0x01
    static let disconnectionRequest: UInt8 = 0x06
    static let connectionParameterUpdateRequest: UInt8 = 0x12
    static let connectionParameterUpdateResponse: UInt8 = 0x13
    static let leCreditBasedConnectionRequest: UInt8 = 0x14
    static let leCreditBasedConnectionResponse: UInt8 = 0x15
    static let flowControlCredit: UInt8 = 0x16
    static let creditBasedConnectionRequest: UInt8 = 0x17
    static let creditBasedConnectionResponse: UInt8 = 0x18

    /// What to do with one signaling packet.
    enum Action: Sendable, Hashable {
        /// Send `reply`, nothing else.
        case reply([UInt8])
        /// Accept the parameters: send `reply`, then update the connection to `parameters`.
        case acceptParameters(reply: [UInt8], parameters: ConnectionParameters)
        /// Nothing to send (a response or a malformed packet; `note` for the log).
        case ignore(note: String)
    }

    /// Decides how to answer one signaling C-frame payload (code, identifier, length, data).
    static func handle(_ payload: [UInt8]) -> Action {
        var reader = ByteReader(payload)
        guard let code = reader.u8(), let identifier = reader.u8(), let length = reader.u16(),
              reader.remaining == Int(length) else {
            return .ignore(note: "malformed LE signaling packet: \(hexDump(payload))")
        }
        switch code {
        case connectionParameterUpdateRequest:
            guard let low = reader.u16(), let high = reader.u16(), let latency = reader.u16(), let timeout = reader.u16() else {
                return .reply(reject(identifier: identifier, reason: 0x0000))
            }
            let parameters = ConnectionParameters(intervalMin: low, intervalMax: high, latency: latency, supervisionTimeout: timeout)
            let accepted = parameters.validationProblem == nil
            let response = packet(code: connectionParameterUpdateResponse, identifier: identifier,
                                  data: accepted ? [0x00, 0x00] : [0x01, 0x00])
            return accepted ? .acceptParameters(reply: response, parameters: parameters) : .reply(response)
        case leCreditBasedConnectionRequest:
            // destination CID, MTU, MPS, initial credits = 0; result 0x0002 "LE_PSM not supported".
            return .reply(packet(code: leCreditBasedConnectionResponse, identifier: identifier,
                                 data: [0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x00]))
        case creditBasedConnectionRequest:
            // MTU, MPS, initial credits = 0, result 0x0002 "SPSM not supported", no CIDs.
            return .reply(packet(code: creditBasedConnectionResponse, identifier: identifier,
                                 data: [0, 0, 0, 0, 0, 0, 0x02, 0x00]))
        case commandReject, connectionParameterUpdateResponse, leCreditBasedConnectionResponse,
             creditBasedConnectionResponse, flowControlCredit, 0x19, 0x1A:
            return .ignore(note: "LE signaling code 0x\(hex(code)) needs no answer")
        case disconnectionRequest:
            // No dynamic channels exist: "invalid CID in request" with the requested CIDs.
            let cids = Array(payload.dropFirst(4).prefix(4))
            return .reply(reject(identifier: identifier, reason: 0x0002, data: cids))
        default:
            return .reply(reject(identifier: identifier, reason: 0x0000))
        }
    }

    /// A Command Reject with `reason` (0x0000 command not understood, 0x0002 invalid CID).
    static func reject(identifier: UInt8, reason: UInt16, data: [UInt8] = []) -> [UInt8] {
        var body: [UInt8] = []
        body.appendLE(reason)
        body.append(contentsOf: data)
        return packet(code: commandReject, identifier: identifier, data: body)
    }

    static func packet(code: UInt8, identifier: UInt8, data: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = [code, identifier]
        bytes.appendLE(UInt16(data.count))
        bytes.append(contentsOf: data)
        return bytes
    }
}
