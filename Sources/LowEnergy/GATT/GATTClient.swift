import NearbyBase

/// The GATT client of one connection: MTU exchange, discovery, reads, writes, subscriptions
/// (Core Vol 3 Part G 4).
///
/// Obtain it from ``BLEConnection/gatt``. Every call is one or more ATT requests, run one at a
/// time per connection; errors are ``BluetoothError``s (ATT errors are named, with a hint such
/// as "pair the accessory first" for Insufficient Authentication).
public final class GATTClient: Sendable {
    let bearer: ATTBearer

    init(bearer: ATTBearer) {
        self.bearer = bearer
    }

    /// The current ATT_MTU, bytes (23 until an MTU exchange raised it).
    public var mtu: Int { bearer.mtu }

    /// The longest value one write or notification carries: ATT_MTU - 3, bytes.
    public var maximumValueLength: Int { bearer.mtu - 3 }

    /// Exchanges MTUs: offers this host's receive MTU and records min(ours, the accessory's).
    /// - Returns: the negotiated ATT_MTU, bytes.
    /// - Throws: ATT errors (a server that does not support the exchange answers Request Not
    ///   Supported; the MTU then stays 23), timeouts, disconnection.
    @discardableResult
    public func exchangeMTU() async throws(BluetoothError) -> Int {
        let response = try await bearer.request(.exchangeMTU(clientMTU: bearer.localMTU))
        guard case .exchangeMTU(let serverMTU) = response else { throw unexpected(response) }
        return bearer.negotiated(serverMTU: serverMTU)
    }

    /// Discovers every primary service (Read By Group Type over the whole handle range).
    /// - Throws: ATT errors, timeouts, disconnection, ``BluetoothError/invalidResponse(detail:)``.
    public func discoverPrimaryServices() async throws(BluetoothError) -> [GATTService] {
        var services: [GATTService] = []
        var start: UInt16 = 0x0001
        while true {
            let response: ATTResponse
            do {
                response = try await bearer.request(.readByGroupType(start: start, end: 0xFFFF, type: .primaryService))
            } catch let error where Self.isEndOfResults(error) {
                break
            }
            guard case .readByGroupType(let groups) = response else { throw unexpected(response) }
            for group in groups {
                guard let uuid = BluetoothUUID(littleEndian: group.value) else {
                    throw .invalidResponse(detail: "service at 0x\(hex(group.start)) has a \(group.value.count)-byte UUID")
                }
                services.append(GATTService(uuid: uuid, startHandle: group.start, endHandle: group.end))
            }
            guard let last = groups.last?.end, last >= start else {
                throw .invalidResponse(detail: "service discovery did not advance past handle 0x\(hex(start))")
            }
            if last == 0xFFFF { break }
            start = last + 1
        }
        return services
    }

    /// Discovers the primary services with `uuid` (Find By Type Value).
    /// - Throws: ATT errors, timeouts, disconnection.
    public func discoverPrimaryServices(uuid: BluetoothUUID) async throws(BluetoothError) -> [GATTService] {
        var services: [GATTService] = []
        var start: UInt16 = 0x0001
        while true {
            let response: ATTResponse
            do {
                response = try await bearer.request(.findByTypeValue(
                    start: start, end: 0xFFFF, type: BluetoothUUID.primaryService.alias16!, value: uuid.attBytes))
            } catch let error where Self.isEndOfResults(error) {
                break
            }
            guard case .findByTypeValue(let ranges) = response else { throw unexpected(response) }
            for range in ranges {
                services.append(GATTService(uuid: uuid, startHandle: range.start, endHandle: range.end))
            }
            guard let last = ranges.last?.end, last >= start else {
                throw .invalidResponse(detail: "service discovery did not advance past handle 0x\(hex(start))")
            }
            if last == 0xFFFF { break }
            start = last + 1
        }
        return services
    }

    /// Discovers the characteristics of `service` (Read By Type 0x2803 over its handles).
    /// - Throws: ATT errors, timeouts, disconnection, ``BluetoothError/invalidResponse(detail:)``.
    public func discoverCharacteristics(of service: GATTService) async throws(BluetoothError) -> [GATTCharacteristic] {
        var declarations: [(declaration: UInt16, properties: UInt8, value: UInt16, uuid: BluetoothUUID)] = []
        var start = service.startHandle
        while start <= service.endHandle {
            let response: ATTResponse
            do {
                response = try await bearer.request(.readByType(start: start, end: service.endHandle, type: .characteristicDeclaration))
            } catch let error where Self.isEndOfResults(error) {
                break
            }
            guard case .readByType(let values) = response else { throw unexpected(response) }
            for entry in values {
                var reader = ByteReader(entry.value)
                guard let properties = reader.u8(), let valueHandle = reader.u16(),
                      let uuid = BluetoothUUID(littleEndian: reader.rest()) else {
                    throw .invalidResponse(detail: "characteristic declaration at 0x\(hex(entry.handle)) is malformed: \(hexDump(entry.value))")
                }
                declarations.append((entry.handle, properties, valueHandle, uuid))
            }
            guard let last = values.last?.handle, last >= start else {
                throw .invalidResponse(detail: "characteristic discovery did not advance past handle 0x\(hex(start))")
            }
            if last >= service.endHandle { break }
            start = last + 1
        }
        return declarations.enumerated().map { index, declaration in
            let end = index + 1 < declarations.count ? declarations[index + 1].declaration - 1 : service.endHandle
            return GATTCharacteristic(
                uuid: declaration.uuid, declarationHandle: declaration.declaration, valueHandle: declaration.value,
                endHandle: max(end, declaration.value), properties: GATTCharacteristicProperties(rawValue: declaration.properties))
        }
    }

    /// Discovers the descriptors of `characteristic` (Find Information after its value handle).
    /// - Throws: ATT errors, timeouts, disconnection.
    public func discoverDescriptors(of characteristic: GATTCharacteristic) async throws(BluetoothError) -> [GATTDescriptor] {
        guard characteristic.valueHandle < characteristic.endHandle else { return [] }
        var descriptors: [GATTDescriptor] = []
        var start = characteristic.valueHandle + 1
        while start <= characteristic.endHandle {
            let response: ATTResponse
            do {
                response = try await bearer.request(.findInformation(start: start, end: characteristic.endHandle))
            } catch let error where Self.isEndOfResults(error) {
                break
            }
            guard case .findInformation(let entries) = response else { throw unexpected(response) }
            descriptors.append(contentsOf: entries.map { GATTDescriptor(uuid: $0.type, handle: $0.handle) })
            guard let last = entries.last?.handle, last >= start else {
                throw .invalidResponse(detail: "descriptor discovery did not advance past handle 0x\(hex(start))")
            }
            if last >= characteristic.endHandle { break }
            start = last + 1
        }
        return descriptors
    }

    /// Reads a characteristic's value, including long values (Read, then Read Blob while the
    /// response fills the MTU; at most 512 bytes, the ATT maximum).
    /// - Throws: ATT errors (e.g. Read Not Permitted, Insufficient Authentication), timeouts,
    ///   disconnection.
    public func read(_ characteristic: GATTCharacteristic) async throws(BluetoothError) -> [UInt8] {
        try await readValue(handle: characteristic.valueHandle)
    }

    /// Reads the value of the attribute at `handle` (a characteristic value or a descriptor).
    /// - Throws: as ``read(_:)``.
    public func readValue(handle: UInt16) async throws(BluetoothError) -> [UInt8] {
        let response = try await bearer.request(.read(handle: handle))
        guard case .read(var value) = response else { throw unexpected(response) }
        // A response that fills the MTU may be the start of a long value.
        var lastPart = value.count
        while value.count < 512, lastPart >= bearer.mtu - 1 {
            let part: [UInt8]
            do throws(BluetoothError) {
                let blob = try await bearer.request(.readBlob(handle: handle, offset: UInt16(value.count)))
                guard case .readBlob(let bytes) = blob else { throw unexpected(blob) }
                part = bytes
            } catch let error where Self.isEndOfLongValue(error) {
                break
            }
            if part.isEmpty { break }
            value.append(contentsOf: part)
            lastPart = part.count
        }
        return value
    }

    /// Writes a characteristic's value.
    /// - Parameters:
    ///   - value: the bytes, at most ATT_MTU - 3.
    ///   - characteristic: the characteristic written (its value handle).
    ///   - type: with response (Write Request, confirmed) or without (Write Command).
    /// - Throws: ``BluetoothError/messageTooLong(length:maximum:)`` if `value` is longer than
    ///   ATT_MTU - 3 (long writes are not supported), ATT errors, timeouts, disconnection.
    public func write(_ value: [UInt8], to characteristic: GATTCharacteristic, type: GATTWriteType = .withResponse) async throws(BluetoothError) {
        try await writeValue(value, handle: characteristic.valueHandle, type: type)
    }

    /// Writes the value of the attribute at `handle`; see ``write(_:to:type:)``.
    public func writeValue(_ value: [UInt8], handle: UInt16, type: GATTWriteType = .withResponse) async throws(BluetoothError) {
        let maximum = bearer.mtu - 3
        guard value.count <= maximum else { throw .messageTooLong(length: value.count, maximum: maximum) }
        switch type {
        case .withResponse:
            let response = try await bearer.request(.write(handle: handle, value: value))
            guard case .write = response else { throw unexpected(response) }
        case .withoutResponse:
            try await bearer.writeCommand(handle: handle, value: value)
        }
    }

    /// Subscribes to `characteristic`: finds its CCCD, starts routing its values, then writes
    /// the CCCD. No value is lost between the write and the first iteration: the stream
    /// buffers.
    /// - Parameters:
    ///   - characteristic: the characteristic to subscribe to (it must notify or indicate).
    ///   - kind: notifications or indications (indications are confirmed by this host).
    ///   - descriptors: the characteristic's descriptors if already discovered (saves a round trip).
    /// - Returns: the subscription; iterate ``GATTSubscription/values`` (single consumer). The
    ///   stream finishes on ``unsubscribe(_:)`` or disconnection.
    /// - Throws: ``BluetoothError/unsupported(detail:)`` if the characteristic cannot notify or
    ///   indicate, ``BluetoothError/notFound(detail:)`` without a CCCD, ATT errors, disconnection.
    public func subscribe(to characteristic: GATTCharacteristic, kind: GATTSubscriptionKind = .notifications,
                          descriptors: [GATTDescriptor]? = nil) async throws(BluetoothError) -> GATTSubscription {
        let needed: GATTCharacteristicProperties = kind == .notifications ? .notify : .indicate
        guard characteristic.properties.contains(needed) else {
            throw .unsupported(detail: "\(characteristic) does not support \(kind == .notifications ? "notifications" : "indications")")
        }
        let found: [GATTDescriptor]
        if let descriptors {
            found = descriptors
        } else {
            found = try await discoverDescriptors(of: characteristic)
        }
        guard let cccd = found.first(where: { $0.uuid == .clientCharacteristicConfiguration }) else {
            throw .notFound(detail: "\(characteristic) has no Client Characteristic Configuration descriptor (0x2902)")
        }
        let (id, stream) = bearer.router.subscribe(handle: characteristic.valueHandle)
        do {
            try await writeValue(kind.cccdValue, handle: cccd.handle, type: .withResponse)
        } catch {
            bearer.router.remove(handle: characteristic.valueHandle, id: id)
            throw error
        }
        return GATTSubscription(characteristic: characteristic, cccdHandle: cccd.handle, kind: kind, id: id, values: stream)
    }

    /// Writes 0x0000 to the subscription's CCCD and finishes its stream.
    /// - Throws: ATT errors, timeouts, disconnection (the stream is finished in any case).
    public func unsubscribe(_ subscription: GATTSubscription) async throws(BluetoothError) {
        bearer.router.remove(handle: subscription.characteristic.valueHandle, id: subscription.id)
        try await writeValue([0x00, 0x00], handle: subscription.cccdHandle, type: .withResponse)
    }

    /// Number of live subscriptions routing values of `characteristic` (for diagnostics and tests).
    public func subscriptionCount(for characteristic: GATTCharacteristic) -> Int {
        bearer.router.subscriberCount(handle: characteristic.valueHandle)
    }

    private func unexpected(_ response: ATTResponse) -> BluetoothError {
        .invalidResponse(detail: "unexpected ATT response \(response)")
    }

    private static func isEndOfResults(_ error: BluetoothError) -> Bool {
        if case .attError(let code, _, _) = error, code == .attributeNotFound { return true }
        return false
    }

    private static func isEndOfLongValue(_ error: BluetoothError) -> Bool {
        if case .attError(let code, _, _) = error, code == .attributeNotLong || code == .invalidOffset { return true }
        return false
    }
}

/// An active notification or indication subscription.
public struct GATTSubscription: Sendable {
    /// The characteristic whose values arrive.
    public let characteristic: GATTCharacteristic
    /// Its Client Characteristic Configuration descriptor's handle.
    public let cccdHandle: UInt16
    /// Notifications or indications.
    public let kind: GATTSubscriptionKind
    let id: UInt64
    /// The values, one per notification or indication, in order. Single consumer; finishes on
    /// unsubscribe or disconnection.
    public let values: AsyncStream<[UInt8]>
}
