public import Logging
import NearbyBase
import NearbySupport

/// This host's GATT server (Core Vol 3 Part F 3.4, Part G 4): serves an ``AttributeDatabase``
/// to the ATT clients of every connection of a ``BLEHost`` it is attached to
/// (``BLEHost/setGATTServer(_:)``); a phone connecting to the advertising host discovers the
/// services, reads, writes and subscribes here.
///
/// | Request | Answer |
/// |---|---|
/// | Exchange MTU | by the connection's ATT bearer: min(client's, ``BLEHostConfiguration/peripheralMTU``) |
/// | Find Information, Find By Type Value, Read By Type, Read By Group Type | the matching attributes that fit ATT_MTU; Attribute Not Found past the last; Unsupported Group Type for anything but services |
/// | Read, Read Blob | the value (ATT_MTU − 1 bytes at `offset`); Invalid Offset past the end; Read Not Permitted without the read property |
/// | Write Request, Write Command | the write handler's verdict (Write Not Permitted without the property, Invalid Attribute Value Length above the maximum); commands get no answer |
/// | Prepare / Execute Write | queued per connection (1024 bytes at most: Prepare Queue Full), written whole on execute |
/// | CCCD write | per-connection notifications / indications (Value Not Allowed for bits the characteristic lacks) |
/// | anything else | Request Not Supported; an unknown command is ignored; a short PDU is Invalid PDU |
///
/// Errors name the first handle concerned (Invalid Handle for a handle that does not exist or a
/// start handle of 0 or above the end). Encrypted attributes answer Insufficient Authentication
/// (Insufficient Encryption once bonded) on an unencrypted link, so phones pair.
/// Client configurations (CCCDs) live per connection and end with it.
public actor GATTServer {
    /// The database served.
    public private(set) var database: AttributeDatabase
    private let logger: Logger
    private var clients: [ObjectIdentifier: ClientState] = [:]
    private var writeHandlers: [UInt16: @Sendable (GATTServerWrite) -> ATTErrorCode?] = [:]
    private var configurationHandlers: [UInt16: @Sendable (BLEConnection, GATTClientConfiguration) -> Void] = [:]

    /// Bytes the prepare-write queue of one connection holds at most.
    public static let prepareQueueLimit = 1024

    private struct ClientState {
        var configurations: [UInt16: GATTClientConfiguration] = [:]
        var prepared: [(handle: UInt16, offset: Int, value: [UInt8])] = []
        var preparedBytes = 0
        var pendingIndication: Promise<Void>?
    }

    /// Creates a server for `services` (add ``GATTServerService/genericAccess(name:appearance:)``
    /// and ``GATTServerService/genericAttribute`` first: phones read them first).
    /// - Throws: ``BluetoothError/invalidArgument(detail:)`` for a database that does not fit.
    public init(services: [GATTServerService], logger: Logger = Logger(label: "nearby.lowenergy.gatt-server")) throws(BluetoothError) {
        self.database = try AttributeDatabase(services: services)
        self.logger = logger
    }

    /// Where characteristic `characteristic` of service `service` is, `nil` if not served.
    public func handles(of characteristic: BluetoothUUID, in service: BluetoothUUID) -> GATTServerHandles? {
        database.handles(of: characteristic, in: service)
    }

    /// Replaces the value reads of `handle` return (for every connection).
    public func setValue(_ value: [UInt8], for handle: UInt16) {
        database.setValue(value, at: handle)
    }

    /// Sets what handles writes to the value at `handle`: it runs on the server (keep it short,
    /// never block) and returns `nil` to accept or the ATT error a Write Request gets.
    public func setWriteHandler(for handle: UInt16, _ handler: @escaping @Sendable (GATTServerWrite) -> ATTErrorCode?) {
        writeHandlers[handle] = handler
    }

    /// Sets what learns about client configuration changes of the value at `handle` (a client
    /// subscribing or unsubscribing; not called when its connection ends).
    public func setConfigurationHandler(for handle: UInt16,
                                        _ handler: @escaping @Sendable (BLEConnection, GATTClientConfiguration) -> Void) {
        configurationHandlers[handle] = handler
    }

    /// The client configuration of the value at `handle` on `connection` (off unless it subscribed).
    public func configuration(of handle: UInt16, on connection: BLEConnection) -> GATTClientConfiguration {
        clients[ObjectIdentifier(connection)]?.configurations[handle] ?? []
    }

    /// Notifies `value` of the characteristic at `handle` to `connection`'s client.
    /// - Throws: ``BluetoothError/notReady(detail:)`` if that client has not enabled
    ///   notifications, ``BluetoothError/messageTooLong(length:maximum:)`` above ATT_MTU − 3
    ///   (never truncated), ``BluetoothError/disconnected(reason:)``, transport errors.
    public func notify(_ value: [UInt8], handle: UInt16, on connection: BLEConnection) async throws(BluetoothError) {
        if let reason = connection.disconnectionReason { throw .disconnected(reason: reason) }
        guard configuration(of: handle, on: connection).contains(.notifications) else {
            throw .notReady(detail: "\(connection.peerAddress) has not enabled notifications of 0x\(hex(handle))")
        }
        let maximum = connection.mtu - 3
        guard value.count <= maximum else { throw .messageTooLong(length: value.count, maximum: maximum) }
        var pdu: [UInt8] = [ATTOpcode.handleValueNotification.rawValue]
        pdu.appendLE(handle)
        pdu += value
        try await connection.sendAttributePDU(pdu)
    }

    /// Indicates `value` of the characteristic at `handle` to `connection`'s client and waits
    /// for its confirmation (one indication at a time per connection).
    /// - Throws: as ``notify(_:handle:on:)`` (for indications), ``BluetoothError/busy(detail:)``
    ///   while another indication waits, ``BluetoothError/timeout(operation:timeout:hint:)``
    ///   after `timeout` without confirmation.
    public func indicate(_ value: [UInt8], handle: UInt16, on connection: BLEConnection,
                         timeout: Duration = .seconds(30)) async throws(BluetoothError) {
        if let reason = connection.disconnectionReason { throw .disconnected(reason: reason) }
        guard configuration(of: handle, on: connection).contains(.indications) else {
            throw .notReady(detail: "\(connection.peerAddress) has not enabled indications of 0x\(hex(handle))")
        }
        let maximum = connection.mtu - 3
        guard value.count <= maximum else { throw .messageTooLong(length: value.count, maximum: maximum) }
        let id = ObjectIdentifier(connection)
        guard clients[id]?.pendingIndication == nil else {
            throw .busy(detail: "an indication to \(connection.peerAddress) waits for its confirmation")
        }
        let confirmation = Promise<Void>()
        clients[id, default: ClientState()].pendingIndication = confirmation
        defer { clients[id]?.pendingIndication = nil }
        var pdu: [UInt8] = [ATTOpcode.handleValueIndication.rawValue]
        pdu.appendLE(handle)
        pdu += value
        try await connection.sendAttributePDU(pdu)
        do {
            try await confirmation.value(timeout: timeout, operation: "the confirmation of an indication to \(connection.peerAddress)")
        } catch let error as BluetoothError {
            throw error
        } catch {
            throw .timeout(operation: "the confirmation of an indication to \(connection.peerAddress)", timeout: timeout)
        }
    }

    /// Forgets `connection`'s client state (configurations, prepared writes); called when it ends.
    func connectionEnded(_ connection: BLEConnection, reason: HCIStatus) {
        let state = clients.removeValue(forKey: ObjectIdentifier(connection))
        state?.pendingIndication?.fail(BluetoothError.disconnected(reason: reason))
    }

    // MARK: - Requests

    /// `true` for the PDUs a client sends to a server, which this server answers (Exchange MTU
    /// stays with the bearer, which owns the MTU).
    static func handles(opcode: UInt8) -> Bool {
        switch ATTOpcode(rawValue: opcode) {
        case .findInformationRequest, .findByTypeValueRequest, .readByTypeRequest, .readRequest, .readBlobRequest,
             .readMultipleRequest, .readByGroupTypeRequest, .writeRequest, .prepareWriteRequest, .executeWriteRequest,
             .readMultipleVariableRequest, .writeCommand, .signedWriteCommand, .handleValueConfirmation:
            return true
        case .exchangeMTURequest, .errorResponse, .exchangeMTUResponse, .findInformationResponse, .findByTypeValueResponse,
             .readByTypeResponse, .readResponse, .readBlobResponse, .readMultipleResponse, .readByGroupTypeResponse,
             .writeResponse, .prepareWriteResponse, .executeWriteResponse, .handleValueNotification, .handleValueIndication,
             .readMultipleVariableResponse, .multipleHandleValueNotification:
            return false
        case nil:
            // An opcode this host does not know: a request (bit 6 clear) gets Request Not Supported.
            return true
        }
    }

    /// Answers one PDU from `connection`'s client. Returns the response or error to send, if any.
    func handle(_ pdu: [UInt8], from connection: BLEConnection) async -> [UInt8]? {
        guard let opcode = pdu.first else { return nil }
        var reader = ByteReader(pdu, offset: 1)
        let mtu = connection.mtu
        switch ATTOpcode(rawValue: opcode) {
        case .handleValueConfirmation:
            _ = clients[ObjectIdentifier(connection)]?.pendingIndication?.fulfill(())
            return nil
        case .findInformationRequest:
            guard let start = reader.u16(), let end = reader.u16() else { return invalidPDU(opcode) }
            return findInformation(start: start, end: end, mtu: mtu)
        case .findByTypeValueRequest:
            guard let start = reader.u16(), let end = reader.u16(), let type = reader.u16() else { return invalidPDU(opcode) }
            return findByTypeValue(start: start, end: end, type: BluetoothUUID(type), value: reader.rest(), mtu: mtu)
        case .readByTypeRequest:
            guard let start = reader.u16(), let end = reader.u16(), let type = BluetoothUUID(littleEndian: reader.rest()),
                  pdu.count == 7 || pdu.count == 21 else { return invalidPDU(opcode) }
            return await readByType(start: start, end: end, type: type, connection: connection, mtu: mtu)
        case .readRequest:
            guard let handle = reader.u16(), reader.isAtEnd else { return invalidPDU(opcode) }
            return await read(handle: handle, offset: 0, opcode: opcode, connection: connection, mtu: mtu)
        case .readBlobRequest:
            guard let handle = reader.u16(), let offset = reader.u16(), reader.isAtEnd else { return invalidPDU(opcode) }
            return await read(handle: handle, offset: Int(offset), opcode: opcode, connection: connection, mtu: mtu)
        case .readByGroupTypeRequest:
            guard let start = reader.u16(), let end = reader.u16(), let type = BluetoothUUID(littleEndian: reader.rest()),
                  pdu.count == 7 || pdu.count == 21 else { return invalidPDU(opcode) }
            return readByGroupType(start: start, end: end, type: type, mtu: mtu)
        case .writeRequest:
            guard let handle = reader.u16() else { return invalidPDU(opcode) }
            if let error = await write(handle: handle, value: reader.rest(), withResponse: true, connection: connection) {
                return ATTPDU.errorResponse(to: opcode, handle: handle, code: error)
            }
            return [ATTOpcode.writeResponse.rawValue]
        case .writeCommand:
            guard let handle = reader.u16() else { return nil }
            if let error = await write(handle: handle, value: reader.rest(), withResponse: false, connection: connection) {
                logger.info("Write Command to 0x\(hex(handle)) from \(connection.peerAddress) dropped: \(error)")
            }
            return nil
        case .prepareWriteRequest:
            guard let handle = reader.u16(), let offset = reader.u16() else { return invalidPDU(opcode) }
            return await prepareWrite(handle: handle, offset: Int(offset), value: reader.rest(), connection: connection)
        case .executeWriteRequest:
            guard let flags = reader.u8(), reader.isAtEnd, flags <= 1 else { return invalidPDU(opcode) }
            return await executeWrite(flags == 1, connection: connection)
        case .signedWriteCommand:
            logger.debug("ignoring a Signed Write Command from \(connection.peerAddress) (no signing keys)")
            return nil
        default:
            if opcode & 0x40 != 0 { return nil }
            logger.debug("ATT request 0x\(hex(opcode)) from \(connection.peerAddress) is not supported")
            return ATTPDU.errorResponse(to: opcode, handle: reader.u16() ?? 0, code: .requestNotSupported)
        }
    }

    private func invalidPDU(_ opcode: UInt8) -> [UInt8] {
        ATTPDU.errorResponse(to: opcode, handle: 0, code: .invalidPDU)
    }

    /// Invalid Handle for a start of 0 or above the end (Vol 3 Part F 3.4.3.1 ...).
    private func checkRange(_ opcode: ATTOpcode, _ start: UInt16, _ end: UInt16) -> [UInt8]? {
        start == 0 || start > end ? ATTPDU.errorResponse(to: opcode.rawValue, handle: start, code: .invalidHandle) : nil
    }

    private func findInformation(start: UInt16, end: UInt16, mtu: Int) -> [UInt8] {
        if let error = checkRange(.findInformationRequest, start, end) { return error }
        let found = database.attributes(in: start, end)
        guard let first = found.first else {
            return ATTPDU.errorResponse(to: ATTOpcode.findInformationRequest.rawValue, handle: start, code: .attributeNotFound)
        }
        let short = first.type.alias16 != nil
        var pdu: [UInt8] = [ATTOpcode.findInformationResponse.rawValue, short ? 1 : 2]
        for attribute in found {
            guard (attribute.type.alias16 != nil) == short, pdu.count + (short ? 4 : 18) <= mtu else { break }
            pdu.appendLE(attribute.handle)
            pdu += short ? attribute.type.littleEndianBytes(size: 2)! : attribute.type.littleEndianBytes(size: 16)!
        }
        return pdu
    }

    private func findByTypeValue(start: UInt16, end: UInt16, type: BluetoothUUID, value: [UInt8], mtu: Int) -> [UInt8] {
        if let error = checkRange(.findByTypeValueRequest, start, end) { return error }
        var pdu: [UInt8] = [ATTOpcode.findByTypeValueResponse.rawValue]
        for attribute in database.attributes(in: start, end) where attribute.type == type && attribute.value == value {
            guard pdu.count + 4 <= mtu else { break }
            pdu.appendLE(attribute.handle)
            if case .service(let groupEnd) = attribute.kind { pdu.appendLE(groupEnd) } else { pdu.appendLE(attribute.handle) }
        }
        guard pdu.count > 1 else {
            return ATTPDU.errorResponse(to: ATTOpcode.findByTypeValueRequest.rawValue, handle: start, code: .attributeNotFound)
        }
        return pdu
    }

    private func readByType(start: UInt16, end: UInt16, type: BluetoothUUID, connection: BLEConnection, mtu: Int) async -> [UInt8] {
        let opcode = ATTOpcode.readByTypeRequest.rawValue
        if let error = checkRange(.readByTypeRequest, start, end) { return error }
        var entries: [(UInt16, [UInt8])] = []
        for attribute in database.attributes(in: start, end) where attribute.type == type {
            if let error = await readError(attribute, connection: connection) {
                // The first attribute decides the answer; a later one ends the list.
                if entries.isEmpty { return ATTPDU.errorResponse(to: opcode, handle: attribute.handle, code: error) }
                break
            }
            let value = currentValue(attribute, connection: connection)
            let length = min(value.count, mtu - 4, 253)
            if let first = entries.first, first.1.count != length { break }
            guard 2 + entries.count * (2 + length) + 2 + length <= mtu else { break }
            entries.append((attribute.handle, Array(value.prefix(length))))
        }
        guard let first = entries.first else { return ATTPDU.errorResponse(to: opcode, handle: start, code: .attributeNotFound) }
        var pdu: [UInt8] = [ATTOpcode.readByTypeResponse.rawValue, UInt8(2 + first.1.count)]
        for (handle, value) in entries {
            pdu.appendLE(handle)
            pdu += value
        }
        return pdu
    }

    private func readByGroupType(start: UInt16, end: UInt16, type: BluetoothUUID, mtu: Int) -> [UInt8] {
        let opcode = ATTOpcode.readByGroupTypeRequest.rawValue
        if let error = checkRange(.readByGroupTypeRequest, start, end) { return error }
        guard type == .primaryService || type == .secondaryService else {
            return ATTPDU.errorResponse(to: opcode, handle: start, code: .unsupportedGroupType)
        }
        var pdu: [UInt8] = [ATTOpcode.readByGroupTypeResponse.rawValue, 0]
        var length: Int?
        for attribute in database.attributes(in: start, end) where attribute.type == type {
            guard case .service(let groupEnd) = attribute.kind else { continue }
            let entry = 4 + attribute.value.count
            if let length, length != entry { break }
            guard pdu.count + entry <= mtu else { break }
            length = entry
            pdu.appendLE(attribute.handle)
            pdu.appendLE(groupEnd)
            pdu += attribute.value
        }
        guard let length else { return ATTPDU.errorResponse(to: opcode, handle: start, code: .attributeNotFound) }
        pdu[1] = UInt8(length)
        return pdu
    }

    private func read(handle: UInt16, offset: Int, opcode: UInt8, connection: BLEConnection, mtu: Int) async -> [UInt8] {
        guard let attribute = database.attribute(handle) else {
            return ATTPDU.errorResponse(to: opcode, handle: handle, code: .invalidHandle)
        }
        if let error = await readError(attribute, connection: connection) {
            return ATTPDU.errorResponse(to: opcode, handle: handle, code: error)
        }
        let value = currentValue(attribute, connection: connection)
        guard offset <= value.count else { return ATTPDU.errorResponse(to: opcode, handle: handle, code: .invalidOffset) }
        let response: ATTOpcode = opcode == ATTOpcode.readRequest.rawValue ? .readResponse : .readBlobResponse
        return [response.rawValue] + value[offset..<min(value.count, offset + mtu - 1)]
    }

    /// The value `connection` sees (its own CCCDs).
    private func currentValue(_ attribute: AttributeDatabase.Attribute, connection: BLEConnection) -> [UInt8] {
        if case .clientConfiguration(let valueHandle, _) = attribute.kind {
            let bits = configuration(of: valueHandle, on: connection).rawValue
            return [UInt8(bits & 0xFF), UInt8(bits >> 8)]
        }
        return attribute.value
    }

    private func readError(_ attribute: AttributeDatabase.Attribute, connection: BLEConnection) async -> ATTErrorCode? {
        guard case .value(let characteristic) = attribute.kind else { return nil }
        guard characteristic.properties.contains(.read) else { return .readNotPermitted }
        return await securityError(characteristic.readSecurity, connection: connection)
    }

    private func securityError(_ needed: GATTServerSecurity, connection: BLEConnection) async -> ATTErrorCode? {
        guard needed == .encrypted, await !connection.security.isEncrypted else { return nil }
        return await connection.security.storedBond() != nil ? .insufficientEncryption : .insufficientAuthentication
    }

    /// Checks and applies one write; `nil` when accepted.
    private func write(handle: UInt16, value: [UInt8], withResponse: Bool, connection: BLEConnection) async -> ATTErrorCode? {
        guard let attribute = database.attribute(handle) else { return .invalidHandle }
        switch attribute.kind {
        case .clientConfiguration(let valueHandle, let properties):
            guard value.count == 2 else { return .invalidAttributeValueLength }
            let requested = GATTClientConfiguration(rawValue: UInt16(value[0]) | UInt16(value[1]) << 8)
            var allowed: GATTClientConfiguration = []
            if properties.contains(.notify) { allowed.insert(.notifications) }
            if properties.contains(.indicate) { allowed.insert(.indications) }
            guard allowed.isSuperset(of: requested) else { return .valueNotAllowed }
            let id = ObjectIdentifier(connection)
            let previous = clients[id]?.configurations[valueHandle] ?? []
            clients[id, default: ClientState()].configurations[valueHandle] = requested
            if previous != requested {
                logger.info("\(connection.peerAddress): \(requested) for 0x\(hex(valueHandle))")
                configurationHandlers[valueHandle]?(connection, requested)
            }
            return nil
        case .value(let characteristic):
            let property: GATTCharacteristicProperties = withResponse ? .write : .writeWithoutResponse
            guard characteristic.properties.contains(property) else { return .writeNotPermitted }
            if let error = await securityError(characteristic.writeSecurity, connection: connection) { return error }
            guard value.count <= characteristic.maximumLength else { return .invalidAttributeValueLength }
            if let handler = writeHandlers[handle] {
                return handler(GATTServerWrite(connection: connection, handle: handle, value: value, withResponse: withResponse))
            }
            database.setValue(value, at: handle)
            return nil
        case .service, .characteristicDeclaration, .descriptor:
            return .writeNotPermitted
        }
    }

    private func prepareWrite(handle: UInt16, offset: Int, value: [UInt8], connection: BLEConnection) async -> [UInt8] {
        let opcode = ATTOpcode.prepareWriteRequest.rawValue
        guard let attribute = database.attribute(handle) else { return ATTPDU.errorResponse(to: opcode, handle: handle, code: .invalidHandle) }
        guard case .value(let characteristic) = attribute.kind, characteristic.properties.contains(.write) else {
            return ATTPDU.errorResponse(to: opcode, handle: handle, code: .writeNotPermitted)
        }
        if let error = await securityError(characteristic.writeSecurity, connection: connection) {
            return ATTPDU.errorResponse(to: opcode, handle: handle, code: error)
        }
        let id = ObjectIdentifier(connection)
        guard (clients[id]?.preparedBytes ?? 0) + value.count <= Self.prepareQueueLimit else {
            return ATTPDU.errorResponse(to: opcode, handle: handle, code: .prepareQueueFull)
        }
        clients[id, default: ClientState()].prepared.append((handle, offset, value))
        clients[id]?.preparedBytes += value.count
        var pdu: [UInt8] = [ATTOpcode.prepareWriteResponse.rawValue]
        pdu.appendLE(handle)
        pdu.appendLE(UInt16(offset))
        return pdu + value
    }

    private func executeWrite(_ commit: Bool, connection: BLEConnection) async -> [UInt8] {
        let opcode = ATTOpcode.executeWriteRequest.rawValue
        let id = ObjectIdentifier(connection)
        let prepared = clients[id]?.prepared ?? []
        clients[id]?.prepared = []
        clients[id]?.preparedBytes = 0
        guard commit else { return [ATTOpcode.executeWriteResponse.rawValue] }
        // Each handle's parts in order; a part may only continue or overwrite what is there.
        var values: [(handle: UInt16, value: [UInt8])] = []
        for part in prepared {
            let index = values.firstIndex { $0.handle == part.handle } ?? {
                values.append((part.handle, []))
                return values.count - 1
            }()
            guard part.offset <= values[index].value.count else {
                return ATTPDU.errorResponse(to: opcode, handle: part.handle, code: .invalidOffset)
            }
            var value = values[index].value
            value.replaceSubrange(part.offset..<min(value.count, part.offset + part.value.count), with: part.value)
            values[index].value = value
        }
        for (handle, value) in values {
            if let error = await write(handle: handle, value: value, withResponse: true, connection: connection) {
                return ATTPDU.errorResponse(to: opcode, handle: handle, code: error)
            }
        }
        return [ATTOpcode.executeWriteResponse.rawValue]
    }
}

extension ATTErrorCode {
    /// 0x09 Prepare Queue Full.
    public static let prepareQueueFull = ATTErrorCode(rawValue: 0x09)
    /// 0x13 Value Not Allowed.
    public static let valueNotAllowed = ATTErrorCode(rawValue: 0x13)
    /// 0xFD Client Characteristic Configuration Descriptor Improperly Configured (CSS Part B
    /// 1.2): e.g. a write to a data channel's RX before its TX was subscribed.
    public static let clientConfigurationImproperlyConfigured = ATTErrorCode(rawValue: 0xFD)
}
