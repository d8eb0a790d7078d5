/// One DL-TDoA (downlink time difference of arrival) measurement of SESSION_INFO_NTF,
/// measurement type 2: what a tag reports for each anchor message it received. Variable length
/// (AOSP's and google/pica's UCI packet definitions, `DlTdoaRangingMeasurement`).
///
/// | Size | Field | Encoding |
/// |---|---|---|
/// | 2 (extended: 8) | MAC address of the anchor | little-endian |
/// | 1 | status | ``UCIStatus`` |
/// | 1 | message type | 0 poll, 1 response, 2 final (FiRa's DT-anchor messages) |
/// | 2 | message control | b0 TX timestamp type, b1 TX timestamp 64-bit, b3 RX timestamp 64-bit, b5 WGS-84 location present, b6 relative location present, b7-b10 active ranging rounds count |
/// | 2 | block index | |
/// | 1 | round index | |
/// | 1 | NLoS | 0 = line of sight |
/// | 2 + 1 | azimuth + FoM | Q9.7 degrees + 0...100 |
/// | 2 + 1 | elevation + FoM | Q9.7 degrees + 0...100 |
/// | 1 | RSSI | Q7.1 of −dBm |
/// | 5 or 8 | TX timestamp | |
/// | 5 or 8 | RX timestamp | |
/// | 2 | anchor CFO | |
/// | 2 | CFO | |
/// | 4 | initiator reply time | |
/// | 4 | responder reply time | |
/// | 2 | initiator-responder ToF | |
/// | 12 | WGS-84 location | when present |
/// | 10 | relative location: x 28 bits, y 28 bits, z 24 bits | when present |
/// | 1 × n | active ranging rounds | |
public struct UCIDLTDoAMeasurement: Sendable, Hashable {
    /// An anchor's relative location (the 28 / 28 / 24-bit fields, sign-extended).
    public struct RelativeLocation: Sendable, Hashable {
        /// x, 28 bits signed.
        public var x: Int32
        /// y, 28 bits signed.
        public var y: Int32
        /// z, 24 bits signed.
        public var z: Int32

        /// Creates a location.
        public init(x: Int32, y: Int32, z: Int32) {
            self.x = x
            self.y = y
            self.z = z
        }
    }

    /// The anchor's MAC address.
    public var macAddress: UCIMACAddress
    /// The measurement status (``UCIStatus/ok`` for a valid one).
    public var status: UCIStatus
    /// The DT-anchor message this measurement is of.
    public var messageType: UInt8
    /// Message control bit 0: the TX timestamp type.
    public var txTimestampType: UInt8
    /// Message control bit 1: the TX timestamp is 64 bits (else 40).
    public var txTimestampIs64Bit: Bool
    /// Message control bit 3: the RX timestamp is 64 bits (else 40).
    public var rxTimestampIs64Bit: Bool
    /// The block index.
    public var blockIndex: UInt16
    /// The round index.
    public var roundIndex: UInt8
    /// Line-of-sight indication: 0 line of sight, 0xFF unknown.
    public var nlos: UInt8
    /// Angle of arrival, azimuth.
    public var azimuth: UCIAngle
    /// Figure of merit of the azimuth.
    public var azimuthFigureOfMerit: UInt8
    /// Angle of arrival, elevation.
    public var elevation: UCIAngle
    /// Figure of merit of the elevation.
    public var elevationFigureOfMerit: UInt8
    /// RSSI, raw: Q7.1 of −dBm (0 = not reported).
    public var rssi: UInt8
    /// The anchor's TX timestamp.
    public var txTimestamp: UInt64
    /// The tag's RX timestamp.
    public var rxTimestamp: UInt64
    /// The anchor's clock frequency offset.
    public var anchorCFO: UInt16
    /// The clock frequency offset.
    public var cfo: UInt16
    /// The initiator's reply time.
    public var initiatorReplyTime: UInt32
    /// The responder's reply time.
    public var responderReplyTime: UInt32
    /// The time of flight between initiator and responder.
    public var initiatorResponderTimeOfFlight: UInt16
    /// The anchor's WGS-84 location (12 bytes) when reported.
    public var wgs84Location: [UInt8]?
    /// The anchor's relative location when reported.
    public var relativeLocation: RelativeLocation?
    /// The active ranging rounds (at most 15).
    public var activeRangingRounds: [UInt8]

    /// Creates a measurement; everything but the address defaults to zero / absent, with 40-bit
    /// timestamps.
    public init(
        macAddress: UCIMACAddress, status: UCIStatus = .ok, messageType: UInt8 = 0, txTimestampType: UInt8 = 0,
        txTimestampIs64Bit: Bool = false, rxTimestampIs64Bit: Bool = false, blockIndex: UInt16 = 0, roundIndex: UInt8 = 0,
        nlos: UInt8 = 0, azimuth: UCIAngle = UCIAngle(rawValue: 0), azimuthFigureOfMerit: UInt8 = 0,
        elevation: UCIAngle = UCIAngle(rawValue: 0), elevationFigureOfMerit: UInt8 = 0, rssi: UInt8 = 0,
        txTimestamp: UInt64 = 0, rxTimestamp: UInt64 = 0, anchorCFO: UInt16 = 0, cfo: UInt16 = 0,
        initiatorReplyTime: UInt32 = 0, responderReplyTime: UInt32 = 0, initiatorResponderTimeOfFlight: UInt16 = 0,
        wgs84Location: [UInt8]? = nil, relativeLocation: RelativeLocation? = nil, activeRangingRounds: [UInt8] = []
    ) {
        self.macAddress = macAddress
        self.status = status
        self.messageType = messageType
        self.txTimestampType = txTimestampType
        self.txTimestampIs64Bit = txTimestampIs64Bit
        self.rxTimestampIs64Bit = rxTimestampIs64Bit
        self.blockIndex = blockIndex
        self.roundIndex = roundIndex
        self.nlos = nlos
        self.azimuth = azimuth
        self.azimuthFigureOfMerit = azimuthFigureOfMerit
        self.elevation = elevation
        self.elevationFigureOfMerit = elevationFigureOfMerit
        self.rssi = rssi
        self.txTimestamp = txTimestamp
        self.rxTimestamp = rxTimestamp
        self.anchorCFO = anchorCFO
        self.cfo = cfo
        self.initiatorReplyTime = initiatorReplyTime
        self.responderReplyTime = responderReplyTime
        self.initiatorResponderTimeOfFlight = initiatorResponderTimeOfFlight
        self.wgs84Location = wgs84Location
        self.relativeLocation = relativeLocation
        self.activeRangingRounds = activeRangingRounds
    }

    /// `true` if the status says the message was measured.
    public var isValid: Bool { status.isValidMeasurement }

    /// The RSSI in dBm, `nil` if not reported (raw 0).
    public var rssiInDBm: Double? { rssi == 0 ? nil : -Double(rssi) / 2 }

    /// The message-control field as sent.
    var messageControl: UInt16 {
        var control = UInt16(txTimestampType & 1)
        if txTimestampIs64Bit { control |= 1 << 1 }
        if rxTimestampIs64Bit { control |= 1 << 3 }
        if wgs84Location != nil { control |= 1 << 5 }
        if relativeLocation != nil { control |= 1 << 6 }
        control |= UInt16(activeRangingRounds.count & 0x0F) << 7
        return control
    }

    /// Reads one measurement.
    static func decode(_ r: inout UCIFieldReader, extended: Bool, index: Int) throws(UCIError) -> UCIDLTDoAMeasurement {
        let field = "DL-TDoA measurement \(index + 1)"
        let address: UCIMACAddress = extended ? .extended(try r.u64("\(field): MAC address")) : .short(try r.u16("\(field): MAC address"))
        let status = UCIStatus(rawValue: try r.u8("\(field): status"))
        let messageType = try r.u8("\(field): message type")
        let control = try r.u16("\(field): message control")
        let tx64 = control & (1 << 1) != 0
        let rx64 = control & (1 << 3) != 0
        var m = UCIDLTDoAMeasurement(
            macAddress: address, status: status, messageType: messageType, txTimestampType: UInt8(control & 1),
            txTimestampIs64Bit: tx64, rxTimestampIs64Bit: rx64)
        m.blockIndex = try r.u16("\(field): block index")
        m.roundIndex = try r.u8("\(field): round index")
        m.nlos = try r.u8("\(field): NLoS")
        m.azimuth = UCIAngle(bits: try r.u16("\(field): azimuth"))
        m.azimuthFigureOfMerit = try r.u8("\(field): azimuth FoM")
        m.elevation = UCIAngle(bits: try r.u16("\(field): elevation"))
        m.elevationFigureOfMerit = try r.u8("\(field): elevation FoM")
        m.rssi = try r.u8("\(field): RSSI")
        m.txTimestamp = littleEndianValue(try r.bytes(tx64 ? 8 : 5, "\(field): TX timestamp"))
        m.rxTimestamp = littleEndianValue(try r.bytes(rx64 ? 8 : 5, "\(field): RX timestamp"))
        m.anchorCFO = try r.u16("\(field): anchor CFO")
        m.cfo = try r.u16("\(field): CFO")
        m.initiatorReplyTime = try r.u32("\(field): initiator reply time")
        m.responderReplyTime = try r.u32("\(field): responder reply time")
        m.initiatorResponderTimeOfFlight = try r.u16("\(field): initiator-responder ToF")
        if control & (1 << 5) != 0 { m.wgs84Location = try r.bytes(12, "\(field): WGS-84 location") }
        if control & (1 << 6) != 0 {
            let raw = littleEndianValue(try r.bytes(8, "\(field): relative location"))
            let high = littleEndianValue(try r.bytes(2, "\(field): relative location"))
            func signed(_ value: UInt64, bits: Int) -> Int32 {
                let shift = 64 - bits
                return Int32(truncatingIfNeeded: Int64(bitPattern: value << UInt64(shift)) >> Int64(shift))
            }
            let x = raw & 0x0FFF_FFFF
            let y = (raw >> 28) & 0x0FFF_FFFF
            let z = (raw >> 56) | (high << 8)
            m.relativeLocation = RelativeLocation(x: signed(x, bits: 28), y: signed(y, bits: 28), z: signed(z & 0xFF_FFFF, bits: 24))
        }
        let rounds = Int((control >> 7) & 0x0F)
        m.activeRangingRounds = try r.bytes(rounds, "\(field): active ranging rounds")
        return m
    }

    /// Appends the wire bytes.
    func encode(into w: inout ByteWriter) {
        w.append(macAddress.bytes)
        w.u8(status.rawValue)
        w.u8(messageType)
        w.u16(messageControl)
        w.u16(blockIndex)
        w.u8(roundIndex)
        w.u8(nlos)
        w.u16(azimuth.bits)
        w.u8(azimuthFigureOfMerit)
        w.u16(elevation.bits)
        w.u8(elevationFigureOfMerit)
        w.u8(rssi)
        w.append(littleEndianBytes(txTimestamp, width: txTimestampIs64Bit ? 8 : 5))
        w.append(littleEndianBytes(rxTimestamp, width: rxTimestampIs64Bit ? 8 : 5))
        w.u16(anchorCFO)
        w.u16(cfo)
        w.u32(initiatorReplyTime)
        w.u32(responderReplyTime)
        w.u16(initiatorResponderTimeOfFlight)
        if let wgs84Location { w.append((wgs84Location + Array(repeating: 0, count: 12)).prefix(12)) }
        if let location = relativeLocation {
            let x = UInt64(UInt32(bitPattern: location.x) & 0x0FFF_FFFF)
            let y = UInt64(UInt32(bitPattern: location.y) & 0x0FFF_FFFF)
            let z = UInt64(UInt32(bitPattern: location.z) & 0xFF_FFFF)
            let low = x | y << 28 | (z & 0xFF) << 56
            w.append(littleEndianBytes(low, width: 8))
            w.append(littleEndianBytes(z >> 8, width: 2))
        }
        w.append(activeRangingRounds.prefix(15))
    }
}
