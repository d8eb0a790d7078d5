import NearbyBase

/// A non-allocating view of a two-way-ranging SESSION_INFO_NTF payload: the hot path for range
/// notifications.
///
/// Creating the view checks the whole layout once (header, measurement type, address size, N
/// against the payload length); reading ``measurements`` then decodes each 31-byte measurement
/// on demand, into a plain value. Nothing is allocated per notification: the view keeps a
/// reference to the caller's array. For non-hot use, ``UCISessionInfo`` is a decoded copy.
///
/// Payload layout (25-byte header, then N measurements, then optional vendor bytes):
/// `sequence u32 @0, session u32 @4, rcr_indicator u8 @8, current_ranging_interval ms u32 @9,
/// measurement_type u8 @13 (1 = TWR), RFU @14, mac_address_indicator u8 @15 (0 short,
/// 1 extended), RFU 8 @16 (UCI 2.0: HUS primary session u32 + 4 RFU), N u8 @24`.
public struct UCISessionInfoView: Sendable {
    /// The size of the fixed header before the measurements.
    public static let headerSize = 25

    @usableFromInline let payload: ArraySlice<UInt8>
    @usableFromInline let base: Int

    /// Creates a view over a SESSION_INFO_NTF payload (the bytes after the packet header).
    /// - Throws: ``UCIError`` (context `SESSION_INFO_NTF`) if the payload is shorter than the
    ///   header, is not two-way ranging (``UCIError/Code/unexpectedMessage``; decode those with
    ///   ``UCINotification``), has an address indicator other than 0 or 1, or if N measurements
    ///   do not fit the payload.
    public init(payload: ArraySlice<UInt8>) throws(UCIError) {
        try Self.validate(payload)
        self.payload = payload
        self.base = payload.startIndex
    }

    /// Creates a view over a SESSION_INFO_NTF payload; see ``init(payload:)-(ArraySlice<UInt8>)``.
    public init(payload: [UInt8]) throws(UCIError) {
        try self.init(payload: payload[...])
    }

    /// Creates a view over the payload of a typed packet (``UCIPacketFramer`` made it; the
    /// header is not decoded again).
    /// - Throws: ``UCIError/Code/unexpectedMessage`` if the packet is not a whole
    ///   SESSION_INFO_NTF (another message, or a segment: reassemble those first), and the
    ///   errors of ``init(payload:)-(ArraySlice<UInt8>)``.
    public init(packet: UCIPacket) throws(UCIError) {
        guard packet.header.isUnsegmentedSessionInfo else {
            throw UCIError(
                .unexpectedMessage, context: "SESSION_INFO_NTF",
                detail: "the packet is \(packet.header), not a complete SESSION_INFO_NTF (NTF 2/00)")
        }
        try self.init(payload: packet.payload)
    }

    private static func validate(_ p: ArraySlice<UInt8>) throws(UCIError) {
        guard p.count >= headerSize else {
            throw UCIError(
                .truncated, context: "SESSION_INFO_NTF",
                detail: "payload of \(p.count) bytes, shorter than the \(headerSize)-byte header")
        }
        let s = p.startIndex
        let type = UCIRangingMeasurementType(rawValue: p[s + 13])
        guard type == .twoWay else {
            throw UCIError(
                .unexpectedMessage, context: "SESSION_INFO_NTF", field: "measurement type",
                detail: "\(type) is not two-way ranging (0x01); decode it with UCINotification")
        }
        let indicator = p[s + 15]
        guard indicator <= 1 else {
            throw UCIError(
                .invalidValue, context: "SESSION_INFO_NTF", field: "MAC address indicator",
                detail: "value \(Hex.prefixed(indicator)), expected 0 (short addresses) or 1 (extended addresses)")
        }
        let count = Int(p[s + 24])
        let needed = count * UCITwoWayMeasurement.size
        let available = p.count - headerSize
        guard needed <= available else {
            throw UCIError(
                .truncated, context: "SESSION_INFO_NTF", field: "measurements",
                detail: "N = \(count) measurements of \(UCITwoWayMeasurement.size) bytes need \(needed) bytes after "
                    + "the \(headerSize)-byte header, but only \(available) are left (the notification is truncated or N is wrong)")
        }
    }

    @inlinable func byte(_ offset: Int) -> UInt8 { payload[base + offset] }

    @inlinable func u32(_ offset: Int) -> UInt32 {
        UInt32(byte(offset)) | UInt32(byte(offset + 1)) << 8 | UInt32(byte(offset + 2)) << 16 | UInt32(byte(offset + 3)) << 24
    }

    /// The notification's sequence number.
    @inlinable public var sequenceNumber: UInt32 { u32(0) }
    /// The session ID (UCI 1.1) or handle (2.0): route the notification by it.
    @inlinable public var session: UInt32 { u32(4) }
    /// The ranging-round-control indicator.
    @inlinable public var rcrIndicator: UInt8 { byte(8) }
    /// The current ranging interval in milliseconds.
    @inlinable public var currentRangingInterval: UInt32 { u32(9) }
    /// `true` if the measurements carry 8-byte extended MAC addresses.
    @inlinable public var usesExtendedAddresses: Bool { byte(15) == 1 }
    /// UCI 2.0: the hybrid-scheduling primary session (0 otherwise; RFU in UCI 1.1).
    @inlinable public var hybridPrimarySession: UInt32 { u32(16) }
    /// The number of measurements, N.
    @inlinable public var measurementCount: Int { Int(byte(24)) }

    /// The bytes after the last measurement (vendor-specific data), possibly empty.
    public var vendorData: ArraySlice<UInt8> {
        payload[(base + Self.headerSize + measurementCount * UCITwoWayMeasurement.size)...]
    }

    /// The measurements, decoded on access.
    public var measurements: Measurements { Measurements(view: self) }

    /// Calls `body` with each measurement in order: the fastest way to read them all.
    @inlinable
    public func forEachMeasurement(_ body: (UCITwoWayMeasurement) throws -> Void) rethrows {
        let count = measurementCount
        let extended = usesExtendedAddresses
        try payload.withUnsafeBytes { raw in
            // The buffer starts at the payload's first byte.
            for index in 0..<count {
                let offset = Self.headerSize + index * UCITwoWayMeasurement.size
                try body(UCITwoWayMeasurement.decode(raw, at: offset, extended: extended))
            }
        }
    }

    /// The measurements of a ``UCISessionInfoView``: a random-access collection that decodes each
    /// element when it is read.
    public struct Measurements: RandomAccessCollection, Sendable {
        let view: UCISessionInfoView

        /// The first index, 0.
        public var startIndex: Int { 0 }
        /// One past the last index, N.
        public var endIndex: Int { view.measurementCount }

        /// The measurement at `index` (0 ..< N).
        public subscript(index: Int) -> UCITwoWayMeasurement {
            precondition(index >= 0 && index < endIndex, "measurement index \(index) out of range 0..<\(endIndex)")
            let offset = UCISessionInfoView.headerSize + index * UCITwoWayMeasurement.size
            let extended = view.usesExtendedAddresses
            return view.payload.withUnsafeBytes { UCITwoWayMeasurement.decode($0, at: offset, extended: extended) }
        }
    }
}
