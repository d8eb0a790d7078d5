import NearbyBase

/// ATT opcodes (Core Vol 3 Part F 3.4.8).
public enum ATTOpcode: UInt8, Sendable, Hashable, CustomStringConvertible {
    /// 0x01: Error Response.
    case errorResponse = 0x01
    /// 0x02: Exchange MTU Request.
    case exchangeMTURequest = 0x02
    /// 0x03: Exchange MTU Response.
    case exchangeMTUResponse = 0x03
    /// 0x04: Find Information Request.
    case findInformationRequest = 0x04
    /// 0x05: Find Information Response.
    case findInformationResponse = 0x05
    /// 0x06: Find By Type Value Request.
    case findByTypeValueRequest = 0x06
    /// 0x07: Find By Type Value Response.
    case findByTypeValueResponse = 0x07
    /// 0x08: Read By Type Request.
    case readByTypeRequest = 0x08
    /// 0x09: Read By Type Response.
    case readByTypeResponse = 0x09
    /// 0x0A: Read Request.
    case readRequest = 0x0A
    /// 0x0B: Read Response.
    case readResponse = 0x0B
    /// 0x0C: Read Blob Request.
    case readBlobRequest = 0x0C
    /// 0x0D: Read Blob Response.
    case readBlobResponse = 0x0D
    /// 0x0E: Read Multiple Request.
    case readMultipleRequest = 0x0E
    /// 0x0F: Read Multiple Response.
    case readMultipleResponse = 0x0F
    /// 0x10: Read By Group Type Request.
    case readByGroupTypeRequest = 0x10
    /// 0x11: Read By Group Type Response.
    case readByGroupTypeResponse = 0x11
    /// 0x12: Write Request.
    case writeRequest = 0x12
    /// 0x13: Write Response.
    case writeResponse = 0x13
    /// 0x16: Prepare Write Request.
    case prepareWriteRequest = 0x16
    /// 0x17: Prepare Write Response.
    case prepareWriteResponse = 0x17
    /// 0x18: Execute Write Request.
    case executeWriteRequest = 0x18
    /// 0x19: Execute Write Response.
    case executeWriteResponse = 0x19
    /// 0x1B: Handle Value Notification.
    case handleValueNotification = 0x1B
    /// 0x1D: Handle Value Indication.
    case handleValueIndication = 0x1D
    /// 0x1E: Handle Value Confirmation.
    case handleValueConfirmation = 0x1E
    /// 0x20: Read Multiple Variable Request.
    case readMultipleVariableRequest = 0x20
    /// 0x21: Read Multiple Variable Response.
    case readMultipleVariableResponse = 0x21
    /// 0x23: Multiple Handle Value Notification.
    case multipleHandleValueNotification = 0x23
    /// 0x52: Write Command.
    case writeCommand = 0x52
    /// 0xD2: Signed Write Command.
    case signedWriteCommand = 0xD2

    /// The name used in messages, e.g. "Read Request".
    public var description: String {
        switch self {
        case .errorResponse: return "Error Response"
        case .exchangeMTURequest: return "Exchange MTU Request"
        case .exchangeMTUResponse: return "Exchange MTU Response"
        case .findInformationRequest: return "Find Information Request"
        case .findInformationResponse: return "Find Information Response"
        case .findByTypeValueRequest: return "Find By Type Value Request"
        case .findByTypeValueResponse: return "Find By Type Value Response"
        case .readByTypeRequest: return "Read By Type Request"
        case .readByTypeResponse: return "Read By Type Response"
        case .readRequest: return "Read Request"
        case .readResponse: return "Read Response"
        case .readBlobRequest: return "Read Blob Request"
        case .readBlobResponse: return "Read Blob Response"
        case .readMultipleRequest: return "Read Multiple Request"
        case .readMultipleResponse: return "Read Multiple Response"
        case .readByGroupTypeRequest: return "Read By Group Type Request"
        case .readByGroupTypeResponse: return "Read By Group Type Response"
        case .writeRequest: return "Write Request"
        case .writeResponse: return "Write Response"
        case .prepareWriteRequest: return "Prepare Write Request"
        case .prepareWriteResponse: return "Prepare Write Response"
        case .executeWriteRequest: return "Execute Write Request"
        case .executeWriteResponse: return "Execute Write Response"
        case .handleValueNotification: return "Handle Value Notification"
        case .handleValueIndication: return "Handle Value Indication"
        case .handleValueConfirmation: return "Handle Value Confirmation"
        case .readMultipleVariableRequest: return "Read Multiple Variable Request"
        case .readMultipleVariableResponse: return "Read Multiple Variable Response"
        case .multipleHandleValueNotification: return "Multiple Handle Value Notification"
        case .writeCommand: return "Write Command"
        case .signedWriteCommand: return "Signed Write Command"
        }
    }
}

/// The ATT_MTU every LE bearer starts with (Core Vol 3 Part F 3.2.8).
public let attDefaultMTU = 23

/// A request this ATT client sends (each expects exactly one response or an Error Response).
public enum ATTRequest: Sendable, Hashable, CustomStringConvertible {
    /// Exchange MTU Request with the client's receive MTU.
    case exchangeMTU(clientMTU: UInt16)
    /// Find Information Request over a handle range.
    case findInformation(start: UInt16, end: UInt16)
    /// Find By Type Value Request (`type` is a 16-bit attribute type, e.g. 0x2800).
    case findByTypeValue(start: UInt16, end: UInt16, type: UInt16, value: [UInt8])
    /// Read By Type Request.
    case readByType(start: UInt16, end: UInt16, type: BluetoothUUID)
    /// Read Request.
    case read(handle: UInt16)
    /// Read Blob Request.
    case readBlob(handle: UInt16, offset: UInt16)
    /// Read By Group Type Request.
    case readByGroupType(start: UInt16, end: UInt16, type: BluetoothUUID)
    /// Write Request.
    case write(handle: UInt16, value: [UInt8])

    /// The request's opcode.
    public var opcode: ATTOpcode {
        switch self {
        case .exchangeMTU: return .exchangeMTURequest
        case .findInformation: return .findInformationRequest
        case .findByTypeValue: return .findByTypeValueRequest
        case .readByType: return .readByTypeRequest
        case .read: return .readRequest
        case .readBlob: return .readBlobRequest
        case .readByGroupType: return .readByGroupTypeRequest
        case .write: return .writeRequest
        }
    }

    /// The opcode of a successful response.
    public var responseOpcode: ATTOpcode { ATTOpcode(rawValue: opcode.rawValue + 1)! }

    /// The handle an Error Response would name (the first handle of the request).
    public var handle: UInt16 {
        switch self {
        case .exchangeMTU: return 0
        case .findInformation(let start, _), .findByTypeValue(let start, _, _, _),
             .readByType(let start, _, _), .readByGroupType(let start, _, _):
            return start
        case .read(let handle), .readBlob(let handle, _), .write(let handle, _):
            return handle
        }
    }

    /// The PDU bytes.
    public var bytes: [UInt8] {
        var pdu: [UInt8] = [opcode.rawValue]
        switch self {
        case .exchangeMTU(let mtu):
            pdu.appendLE(mtu)
        case .findInformation(let start, let end):
            pdu.appendLE(start)
            pdu.appendLE(end)
        case .findByTypeValue(let start, let end, let type, let value):
            pdu.appendLE(start)
            pdu.appendLE(end)
            pdu.appendLE(type)
            pdu.append(contentsOf: value)
        case .readByType(let start, let end, let type), .readByGroupType(let start, let end, let type):
            pdu.appendLE(start)
            pdu.appendLE(end)
            pdu.append(contentsOf: type.attBytes)
        case .read(let handle):
            pdu.appendLE(handle)
        case .readBlob(let handle, let offset):
            pdu.appendLE(handle)
            pdu.appendLE(offset)
        case .write(let handle, let value):
            pdu.appendLE(handle)
            pdu.append(contentsOf: value)
        }
        return pdu
    }

    /// `"Read Request"`.
    public var description: String { opcode.description }
}

/// A successful response to an ``ATTRequest``, decoded.
public enum ATTResponse: Sendable, Hashable {
    /// Exchange MTU Response: the server's receive MTU.
    case exchangeMTU(serverMTU: UInt16)
    /// Find Information Response: handle and type of each attribute.
    case findInformation([AttributeInfo])
    /// Find By Type Value Response: found handle and group end handle of each match.
    case findByTypeValue([HandleRange])
    /// Read By Type Response: handle and value of each attribute.
    case readByType([HandleValue])
    /// Read Response.
    case read([UInt8])
    /// Read Blob Response.
    case readBlob([UInt8])
    /// Read By Group Type Response: start, end and value of each group.
    case readByGroupType([GroupValue])
    /// Write Response.
    case write

    /// An attribute's handle and type.
    public struct AttributeInfo: Sendable, Hashable {
        /// The attribute handle.
        public var handle: UInt16
        /// The attribute type.
        public var type: BluetoothUUID
    }

    /// A handle and its value.
    public struct HandleValue: Sendable, Hashable {
        /// The attribute handle.
        public var handle: UInt16
        /// The value.
        public var value: [UInt8]
    }

    /// A group's start and end handles and its value (a service UUID).
    public struct GroupValue: Sendable, Hashable {
        /// First handle of the group.
        public var start: UInt16
        /// Last handle of the group.
        public var end: UInt16
        /// The group declaration's value.
        public var value: [UInt8]
    }

    /// A handle range.
    public struct HandleRange: Sendable, Hashable {
        /// First handle.
        public var start: UInt16
        /// Last handle.
        public var end: UInt16
    }

    /// Decodes `pdu` as the response to `request`.
    /// - Returns: the response, or `nil` if `pdu` is a different opcode.
    /// - Throws: ``BluetoothError/attError(code:request:handle:)`` for a matching Error Response,
    ///   ``BluetoothError/invalidResponse(detail:)`` for a malformed response.
    public static func decode(_ pdu: [UInt8], for request: ATTRequest) throws(BluetoothError) -> ATTResponse? {
        guard let first = pdu.first else { return nil }
        var reader = ByteReader(pdu, offset: 1)
        func invalid() -> BluetoothError {
            .invalidResponse(detail: "malformed \(request.responseOpcode): \(hexDump(pdu))")
        }
        if first == ATTOpcode.errorResponse.rawValue {
            guard let requestOpcode = reader.u8(), let handle = reader.u16(), let code = reader.u8() else { throw invalid() }
            guard requestOpcode == request.opcode.rawValue else { return nil }
            throw .attError(code: ATTErrorCode(rawValue: code), request: request.description, handle: handle)
        }
        guard first == request.responseOpcode.rawValue else { return nil }
        switch request {
        case .exchangeMTU:
            guard let mtu = reader.u16() else { throw invalid() }
            return .exchangeMTU(serverMTU: mtu)
        case .findInformation:
            guard let format = reader.u8(), format == 1 || format == 2 else { throw invalid() }
            let uuidLength = format == 1 ? 2 : 16
            var entries: [AttributeInfo] = []
            while !reader.isAtEnd {
                guard let handle = reader.u16(), let bytes = reader.bytes(uuidLength),
                      let uuid = BluetoothUUID(littleEndian: bytes) else { throw invalid() }
                entries.append(AttributeInfo(handle: handle, type: uuid))
            }
            guard !entries.isEmpty else { throw invalid() }
            return .findInformation(entries)
        case .findByTypeValue:
            var ranges: [HandleRange] = []
            while !reader.isAtEnd {
                guard let start = reader.u16(), let end = reader.u16() else { throw invalid() }
                ranges.append(HandleRange(start: start, end: end))
            }
            guard !ranges.isEmpty else { throw invalid() }
            return .findByTypeValue(ranges)
        case .readByType:
            guard let length = reader.u8(), length >= 2 else { throw invalid() }
            var values: [HandleValue] = []
            while !reader.isAtEnd {
                guard let handle = reader.u16(), let value = reader.bytes(Int(length) - 2) else { throw invalid() }
                values.append(HandleValue(handle: handle, value: value))
            }
            guard !values.isEmpty else { throw invalid() }
            return .readByType(values)
        case .read:
            return .read(reader.rest())
        case .readBlob:
            return .readBlob(reader.rest())
        case .readByGroupType:
            guard let length = reader.u8(), length >= 4 else { throw invalid() }
            var groups: [GroupValue] = []
            while !reader.isAtEnd {
                guard let start = reader.u16(), let end = reader.u16(), let value = reader.bytes(Int(length) - 4) else {
                    throw invalid()
                }
                groups.append(GroupValue(start: start, end: end, value: value))
            }
            guard !groups.isEmpty else { throw invalid() }
            return .readByGroupType(groups)
        case .write:
            return .write
        }
    }
}

/// ATT PDUs this client sends that expect no response, and ones it answers.
enum ATTPDU {
    /// Write Command.
    static func writeCommand(handle: UInt16, value: [UInt8]) -> [UInt8] {
        var pdu: [UInt8] = [ATTOpcode.writeCommand.rawValue]
        pdu.appendLE(handle)
        pdu.append(contentsOf: value)
        return pdu
    }

    /// Handle Value Confirmation.
    static let confirmation: [UInt8] = [ATTOpcode.handleValueConfirmation.rawValue]

    /// Error Response to a request from the peer.
    static func errorResponse(to requestOpcode: UInt8, handle: UInt16, code: ATTErrorCode) -> [UInt8] {
        var pdu: [UInt8] = [ATTOpcode.errorResponse.rawValue, requestOpcode]
        pdu.appendLE(handle)
        pdu.append(code.rawValue)
        return pdu
    }

    /// Exchange MTU Response with our receive MTU.
    static func exchangeMTUResponse(mtu: UInt16) -> [UInt8] {
        var pdu: [UInt8] = [ATTOpcode.exchangeMTUResponse.rawValue]
        pdu.appendLE(mtu)
        return pdu
    }
}
