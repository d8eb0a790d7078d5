import NearbyBase

/// An LE Meta event (HCI event 0x3E), decoded by subevent (Core Vol 4 Part E 7.7.65).
public enum LEMetaEvent: Sendable, Hashable {
    /// 0x01 LE Connection Complete, or 0x0A / 0x29 LE Enhanced Connection Complete (v1 / v2).
    case connectionComplete(LEConnectionComplete)
    /// 0x02 LE Advertising Report (legacy) or 0x0D LE Extended Advertising Report.
    case advertisingReports([AdvertisingReport])
    /// 0x03 LE Connection Update Complete.
    case connectionUpdateComplete(status: HCIStatus, handle: UInt16, interval: UInt16, latency: UInt16, supervisionTimeout: UInt16)
    /// 0x04 LE Read Remote Features Complete.
    case remoteFeaturesComplete(status: HCIStatus, handle: UInt16, features: UInt64)
    /// 0x05 LE Long Term Key Request (the peer wants to encrypt with a key this host must supply,
    /// identified by `rand` and `ediv`; both 0 for Secure Connections keys and STKs).
    case longTermKeyRequest(handle: UInt16, rand: UInt64, ediv: UInt16)
    /// 0x06 LE Remote Connection Parameter Request: the peer asks for new parameters; the host
    /// must reply.
    case remoteConnectionParameterRequest(handle: UInt16, intervalMin: UInt16, intervalMax: UInt16, latency: UInt16, supervisionTimeout: UInt16)
    /// 0x07 LE Data Length Change.
    case dataLengthChange(handle: UInt16, maxTxOctets: UInt16, maxRxOctets: UInt16)
    /// 0x0C LE PHY Update Complete.
    case phyUpdateComplete(status: HCIStatus, handle: UInt16, txPHY: UInt8, rxPHY: UInt8)
    /// Any other subevent.
    case other(subevent: UInt8, parameters: [UInt8])

    /// Decodes the meta event's parameters (`parameters[0]` is the subevent code).
    /// - Parameter packet: the whole event, for error messages.
    /// - Throws: ``BluetoothError/malformedPacket(detail:)``.
    init(decoding parameters: [UInt8], packet: [UInt8]) throws(BluetoothError) {
        var reader = ByteReader(parameters)
        guard let subevent = reader.u8() else {
            throw .malformedPacket(detail: "LE Meta event without subevent code: \(hexDump(packet))")
        }
        func malformed(_ name: String) -> BluetoothError {
            .malformedPacket(detail: "LE \(name) event too short or inconsistent: \(hexDump(packet))")
        }
        switch subevent {
        case 0x01, 0x0A, 0x29:
            let enhanced = subevent != 0x01
            guard let status = reader.u8(), let handle = reader.u16(), let role = reader.u8(),
                  let peerType = reader.u8(), let peer = reader.address() else { throw malformed("Connection Complete") }
            if enhanced {
                guard reader.skip(12) else { throw malformed("Enhanced Connection Complete") }
            }
            guard let interval = reader.u16(), let latency = reader.u16(), let timeout = reader.u16(),
                  reader.u8() != nil else { throw malformed("Connection Complete") }
            self = .connectionComplete(LEConnectionComplete(
                status: HCIStatus(rawValue: status), handle: handle & 0x0FFF, role: role,
                peerAddressType: BluetoothAddressType(rawValue: peerType), peerAddress: peer,
                interval: interval, latency: latency, supervisionTimeout: timeout, enhanced: enhanced))
        case 0x02:
            self = .advertisingReports(try Self.legacyReports(&reader, malformed: malformed("Advertising Report")))
        case 0x0D:
            self = .advertisingReports(try Self.extendedReports(&reader, malformed: malformed("Extended Advertising Report")))
        case 0x03:
            guard let status = reader.u8(), let handle = reader.u16(), let interval = reader.u16(),
                  let latency = reader.u16(), let timeout = reader.u16() else { throw malformed("Connection Update Complete") }
            self = .connectionUpdateComplete(status: HCIStatus(rawValue: status), handle: handle & 0x0FFF,
                                             interval: interval, latency: latency, supervisionTimeout: timeout)
        case 0x04:
            guard let status = reader.u8(), let handle = reader.u16(), let features = reader.u64() else {
                throw malformed("Read Remote Features Complete")
            }
            self = .remoteFeaturesComplete(status: HCIStatus(rawValue: status), handle: handle & 0x0FFF, features: features)
        case 0x05:
            guard let handle = reader.u16(), let rand = reader.u64(), let ediv = reader.u16() else {
                throw malformed("Long Term Key Request")
            }
            self = .longTermKeyRequest(handle: handle & 0x0FFF, rand: rand, ediv: ediv)
        case 0x06:
            guard let handle = reader.u16(), let low = reader.u16(), let high = reader.u16(),
                  let latency = reader.u16(), let timeout = reader.u16() else {
                throw malformed("Remote Connection Parameter Request")
            }
            self = .remoteConnectionParameterRequest(handle: handle & 0x0FFF, intervalMin: low, intervalMax: high,
                                                     latency: latency, supervisionTimeout: timeout)
        case 0x07:
            guard let handle = reader.u16(), let tx = reader.u16(), reader.u16() != nil, let rx = reader.u16() else {
                throw malformed("Data Length Change")
            }
            self = .dataLengthChange(handle: handle & 0x0FFF, maxTxOctets: tx, maxRxOctets: rx)
        case 0x0C:
            guard let status = reader.u8(), let handle = reader.u16(), let tx = reader.u8(), let rx = reader.u8() else {
                throw malformed("PHY Update Complete")
            }
            self = .phyUpdateComplete(status: HCIStatus(rawValue: status), handle: handle & 0x0FFF, txPHY: tx, rxPHY: rx)
        default:
            self = .other(subevent: subevent, parameters: reader.rest())
        }
    }

    private static func legacyReports(_ reader: inout ByteReader, malformed: @autoclosure () -> BluetoothError) throws(BluetoothError) -> [AdvertisingReport] {
        guard let count = reader.u8() else { throw malformed() }
        var reports: [AdvertisingReport] = []
        for _ in 0..<count {
            guard let code = reader.u8(), let addressType = reader.u8(), let address = reader.address(),
                  let length = reader.u8(), let data = reader.bytes(Int(length)), let rssi = reader.i8() else {
                throw malformed()
            }
            reports.append(AdvertisingReport(
                eventType: AdvertisingEventType(legacy: code) ?? AdvertisingEventType(rawValue: 0x10),
                addressType: BluetoothAddressType(rawValue: addressType), address: address,
                rssi: rssi == 127 ? nil : rssi, txPower: nil, advertisingSID: nil, data: data))
        }
        return reports
    }

    private static func extendedReports(_ reader: inout ByteReader, malformed: @autoclosure () -> BluetoothError) throws(BluetoothError) -> [AdvertisingReport] {
        guard let count = reader.u8() else { throw malformed() }
        var reports: [AdvertisingReport] = []
        for _ in 0..<count {
            guard let eventType = reader.u16(), let addressType = reader.u8(), let address = reader.address(),
                  reader.u8() != nil, reader.u8() != nil,  // primary, secondary PHY
                  let sid = reader.u8(), let txPower = reader.i8(), let rssi = reader.i8(),
                  reader.u16() != nil,  // periodic advertising interval
                  reader.skip(7),  // direct address type, direct address
                  let length = reader.u8(), let data = reader.bytes(Int(length)) else {
                throw malformed()
            }
            reports.append(AdvertisingReport(
                eventType: AdvertisingEventType(rawValue: eventType),
                addressType: BluetoothAddressType(rawValue: addressType), address: address,
                rssi: rssi == 127 ? nil : rssi, txPower: txPower == 127 ? nil : txPower,
                advertisingSID: sid == 0xFF ? nil : sid, data: data))
        }
        return reports
    }
}

/// The outcome of a connection attempt (LE Connection Complete / Enhanced Connection Complete).
public struct LEConnectionComplete: Sendable, Hashable {
    /// 0 on success; 0x02 after a cancelled attempt; 0x3E when the peer did not answer.
    public var status: HCIStatus
    /// The connection handle (valid when `status` is success).
    public var handle: UInt16
    /// 0 central, 1 peripheral.
    public var role: UInt8
    /// The peer's address type.
    public var peerAddressType: BluetoothAddressType
    /// The peer's address.
    public var peerAddress: BluetoothAddress
    /// Connection interval, 1.25 ms units.
    public var interval: UInt16
    /// Peripheral latency, connection events.
    public var latency: UInt16
    /// Supervision timeout, 10 ms units.
    public var supervisionTimeout: UInt16
    /// `true` if it came as an Enhanced Connection Complete event.
    public var enhanced: Bool
}

/// One advertising report as the controller delivered it (legacy or extended format).
public struct AdvertisingReport: Sendable, Hashable {
    /// PDU kind, in the extended layout.
    public var eventType: AdvertisingEventType
    /// The advertiser's address type.
    public var addressType: BluetoothAddressType
    /// The advertiser's address.
    public var address: BluetoothAddress
    /// Received signal strength, dBm (`nil` if the controller did not measure it).
    public var rssi: Int8?
    /// The advertiser's TX power from the extended header, dBm (`nil` if absent).
    public var txPower: Int8?
    /// Advertising set ID (extended advertising only).
    public var advertisingSID: UInt8?
    /// The advertising or scan response data (AD structures).
    public var data: [UInt8]

    /// Creates a report (as decoded from an LE Advertising Report or Extended Advertising Report).
    public init(eventType: AdvertisingEventType, addressType: BluetoothAddressType, address: BluetoothAddress,
                rssi: Int8?, txPower: Int8? = nil, advertisingSID: UInt8? = nil, data: [UInt8]) {
        self.eventType = eventType
        self.addressType = addressType
        self.address = address
        self.rssi = rssi
        self.txPower = txPower
        self.advertisingSID = advertisingSID
        self.data = data
    }
}
