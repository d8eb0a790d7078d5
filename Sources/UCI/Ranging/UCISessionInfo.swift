public import Ranging
import NearbyBase

/// SESSION_INFO_NTF (1.x RANGE_DATA_NTF), decoded into a value: for tests, the virtual UWBS
/// (which encodes it) and debugging. The hot path reads notifications with
/// ``UCISessionInfoView`` instead, which allocates nothing.
///
/// Two-way-ranging, OWR-AoA and DL-TDoA measurements are typed (layouts of AOSP's and
/// google/pica's UCI packet definitions); other measurement types (UL-TDoA) keep their count
/// and raw bytes. Reserved bytes are written as zero and ignored when decoding, as in AOSP and
/// pica.
public struct UCISessionInfo: Sendable, Hashable {
    /// The measurements of a notification.
    public enum Measurements: Sendable, Hashable {
        /// Two-way-ranging measurements (measurement type 1).
        case twoWay([UCITwoWayMeasurement])
        /// DL-TDoA measurements (measurement type 2).
        case dlTDoA([UCIDLTDoAMeasurement])
        /// OWR-AoA measurements (measurement type 3).
        case owrAoA([UCIOWRAoAMeasurement])
        /// Measurements of another type: N and every byte after it (measurements and vendor data).
        case raw(count: UInt8, bytes: [UInt8])
    }

    /// The notification's sequence number.
    public var sequenceNumber: UInt32
    /// The session ID (UCI 1.1) or handle (2.0).
    public var session: UInt32
    /// The ranging-round-control indicator.
    public var rcrIndicator: UInt8
    /// The current ranging interval in milliseconds.
    public var currentRangingInterval: UInt32
    /// The measurement type (octet 13).
    public var measurementType: UCIRangingMeasurementType
    /// `true` if MAC addresses are 8-byte extended ones (octet 15 = 1).
    public var usesExtendedAddresses: Bool
    /// UCI 2.0: the hybrid-scheduling primary session (octets 16-19; 0 in UCI 1.1).
    public var hybridPrimarySession: UInt32
    /// The measurements.
    public var measurements: Measurements
    /// Vendor-specific bytes after the two-way or OWR-AoA measurements (always empty for
    /// DL-TDoA and ``Measurements/raw(count:bytes:)``).
    public var vendorData: [UInt8]

    /// Creates a notification; the measurement type follows `measurements` (a typed list, or the
    /// given raw type), the address size follows the measurements' addresses (short if there are
    /// none).
    public init(
        sequenceNumber: UInt32, session: UInt32, rcrIndicator: UInt8 = 0, currentRangingInterval: UInt32,
        measurementType: UCIRangingMeasurementType = .twoWay, usesExtendedAddresses: Bool? = nil,
        hybridPrimarySession: UInt32 = 0, measurements: Measurements, vendorData: [UInt8] = []
    ) {
        self.sequenceNumber = sequenceNumber
        self.session = session
        self.rcrIndicator = rcrIndicator
        self.currentRangingInterval = currentRangingInterval
        self.measurementType = measurementType
        switch measurements {
        case .twoWay(let list):
            self.measurementType = .twoWay
            self.usesExtendedAddresses = usesExtendedAddresses ?? (list.first?.macAddress.isExtended ?? false)
        case .dlTDoA(let list):
            self.measurementType = .dlTDoA
            self.usesExtendedAddresses = usesExtendedAddresses ?? (list.first?.macAddress.isExtended ?? false)
        case .owrAoA(let list):
            self.measurementType = .owrAoA
            self.usesExtendedAddresses = usesExtendedAddresses ?? (list.first?.macAddress.isExtended ?? false)
        case .raw:
            self.usesExtendedAddresses = usesExtendedAddresses ?? false
        }
        self.hybridPrimarySession = hybridPrimarySession
        self.measurements = measurements
        self.vendorData = vendorData
    }

    /// Copies a view's contents into a value.
    public init(_ view: UCISessionInfoView) {
        var list: [UCITwoWayMeasurement] = []
        list.reserveCapacity(view.measurementCount)
        view.forEachMeasurement { list.append($0) }
        self.init(
            sequenceNumber: view.sequenceNumber, session: view.session, rcrIndicator: view.rcrIndicator,
            currentRangingInterval: view.currentRangingInterval, usesExtendedAddresses: view.usesExtendedAddresses,
            hybridPrimarySession: view.hybridPrimarySession, measurements: .twoWay(list), vendorData: Array(view.vendorData))
    }

    /// Decodes a SESSION_INFO_NTF payload.
    /// - Throws: ``UCIError`` (context `SESSION_INFO_NTF`) if the payload is truncated, N does not
    ///   fit, or the address indicator is neither 0 nor 1; for DL-TDoA, bytes after the last
    ///   measurement are `trailingBytes`.
    public init(payload: ArraySlice<UInt8>) throws(UCIError) {
        guard payload.count > 13, UCIRangingMeasurementType(rawValue: payload[payload.startIndex + 13]) != .twoWay else {
            self.init(try UCISessionInfoView(payload: payload))
            return
        }
        var r = UCIFieldReader(payload, context: "SESSION_INFO_NTF")
        let sequence = try r.u32("sequence number")
        let session = try r.u32("session")
        let rcr = try r.u8("RCR indicator")
        let interval = try r.u32("current ranging interval")
        let type = UCIRangingMeasurementType(rawValue: try r.u8("measurement type"))
        try r.skip(1, "reserved")
        let indicator = try r.u8("MAC address indicator")
        let hus = try r.u32("HUS primary session")
        try r.skip(4, "reserved")
        let count = try r.u8("number of measurements")
        guard indicator <= 1 else {
            throw UCIError(
                .invalidValue, context: "SESSION_INFO_NTF", field: "MAC address indicator",
                detail: "value \(Hex.prefixed(indicator)), expected 0 (short addresses) or 1 (extended addresses)")
        }
        let extended = indicator == 1
        let measurements: Measurements
        var vendorData: [UInt8] = []
        switch type {
        case .owrAoA:
            var list: [UCIOWRAoAMeasurement] = []
            for index in 0..<Int(count) { list.append(try UCIOWRAoAMeasurement.decode(&r, extended: extended, index: index)) }
            measurements = .owrAoA(list)
            vendorData = r.rest()
        case .dlTDoA:
            var list: [UCIDLTDoAMeasurement] = []
            for index in 0..<Int(count) { list.append(try UCIDLTDoAMeasurement.decode(&r, extended: extended, index: index)) }
            try r.expectEnd()
            measurements = .dlTDoA(list)
        default:
            measurements = .raw(count: count, bytes: r.rest())
        }
        self.init(
            sequenceNumber: sequence, session: session, rcrIndicator: rcr, currentRangingInterval: interval,
            measurementType: type, usesExtendedAddresses: extended, hybridPrimarySession: hus,
            measurements: measurements, vendorData: vendorData)
    }

    /// How many measurements the notification carries.
    public var measurementCount: Int {
        switch measurements {
        case .twoWay(let list): list.count
        case .dlTDoA(let list): list.count
        case .owrAoA(let list): list.count
        case .raw(let count, _): Int(count)
        }
    }

    /// The payload bytes.
    /// - Throws: ``UCIError/Code/invalidLength`` if there are more than 255 measurements or a
    ///   measurement's address size differs from ``usesExtendedAddresses``.
    public func encodePayload() throws(UCIError) -> [UInt8] {
        var w = ByteWriter(context: "SESSION_INFO_NTF", capacity: encodedLength)
        w.u32(sequenceNumber)
        w.u32(session)
        w.u8(rcrIndicator)
        w.u32(currentRangingInterval)
        w.u8(measurementType.rawValue)
        w.u8(0)
        w.u8(usesExtendedAddresses ? 1 : 0)
        w.u32(hybridPrimarySession)
        w.u32(0)
        switch measurements {
        case .twoWay(let list):
            try w.count(list.count, "number of measurements")
            for (index, measurement) in list.enumerated() {
                guard measurement.macAddress.isExtended == usesExtendedAddresses else {
                    throw UCIError(
                        .invalidLength, context: "SESSION_INFO_NTF", field: "measurement \(index + 1): MAC address",
                        detail: "\(measurement.macAddress) is \(measurement.macAddress.isExtended ? "extended" : "short"), "
                            + "but the notification announces \(usesExtendedAddresses ? "extended" : "short") addresses")
                }
                measurement.encode(into: &w)
            }
            w.append(vendorData)
        case .owrAoA(let list):
            try w.count(list.count, "number of measurements")
            for (index, measurement) in list.enumerated() {
                try Self.checkAddress(measurement.macAddress, index: index, extended: usesExtendedAddresses)
                measurement.encode(into: &w)
            }
            w.append(vendorData)
        case .dlTDoA(let list):
            try w.count(list.count, "number of measurements")
            for (index, measurement) in list.enumerated() {
                try Self.checkAddress(measurement.macAddress, index: index, extended: usesExtendedAddresses)
                measurement.encode(into: &w)
            }
        case .raw(let count, let bytes):
            w.u8(count)
            w.append(bytes)
        }
        return w.bytes
    }

    /// The payload's length for two-way measurements (25 bytes, then 31 per measurement with short
    /// addresses or 37 with extended ones, then the vendor data), so the encoder allocates once;
    /// 64 for the other kinds.
    private var encodedLength: Int {
        guard case .twoWay(let list) = measurements else { return 64 }
        return 25 + (usesExtendedAddresses ? 37 : 31) * list.count + vendorData.count
    }

    private static func checkAddress(_ address: UCIMACAddress, index: Int, extended: Bool) throws(UCIError) {
        guard address.isExtended != extended else { return }
        throw UCIError(
            .invalidLength, context: "SESSION_INFO_NTF", field: "measurement \(index + 1): MAC address",
            detail: "\(address) is \(address.isExtended ? "extended" : "short"), "
                + "but the notification announces \(extended ? "extended" : "short") addresses")
    }

    /// The valid two-way measurements as range samples with their peer, all stamped `timestamp`;
    /// see ``UCITwoWayMeasurement/rangeSample(timestamp:includeAzimuth:includeElevation:dialect:)``.
    public func peerSamples(timestamp: Double, includeAzimuth: Bool = true, includeElevation: Bool = true) -> [UCIPeerRangeSample] {
        guard case .twoWay(let list) = measurements else { return [] }
        return list.map {
            UCIPeerRangeSample(
                session: session, peer: $0.macAddress,
                sample: $0.rangeSample(timestamp: timestamp, includeAzimuth: includeAzimuth, includeElevation: includeElevation))
        }
    }
}

/// A range sample with the session and peer it belongs to.
public struct UCIPeerRangeSample: Sendable, Hashable {
    /// The session ID or handle of the notification.
    public var session: UInt32
    /// The peer's MAC address.
    public var peer: UCIMACAddress
    /// The measurement.
    public var sample: RangeSample

    /// Creates a sample with its session and peer.
    @inlinable
    public init(session: UInt32, peer: UCIMACAddress, sample: RangeSample) {
        self.session = session
        self.peer = peer
        self.sample = sample
    }
}

extension UCISessionInfoView {
    /// Calls `body` with each measurement as a range sample with its session and peer: the
    /// allocation-free path from notification bytes to `Ranging.RangeSample`.
    /// - Parameters:
    ///   - timestamp: when the notification arrived, in seconds on a monotonic clock.
    ///   - includeAzimuth: report the azimuth (default `true`).
    ///   - includeElevation: report the elevation (default `true`).
    ///   - dialect: how the UWBS encodes angles and RSSI (default FiRa's).
    ///   - body: called once per measurement, in order, with the sample, the session and the peer.
    @inlinable
    public func forEachSample(
        timestamp: Double, includeAzimuth: Bool = true, includeElevation: Bool = true, dialect: UCIMeasurementDialect = .fira,
        _ body: (UCIPeerRangeSample) throws -> Void
    ) rethrows {
        let session = self.session
        let count = measurementCount
        let extended = usesExtendedAddresses
        try payload.withUnsafeBytes { raw in
            // Read only what a RangeSample needs, straight from the validated bytes.
            for index in 0..<count {
                var offset = Self.headerSize + index * UCITwoWayMeasurement.size
                let peer: UCIMACAddress
                if extended {
                    peer = .extended(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
                    offset += 8
                } else {
                    peer = .short(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
                    offset += 2
                }
                func i16(_ at: Int) -> Int16 { Int16(littleEndian: raw.loadUnaligned(fromByteOffset: offset + at, as: Int16.self)) }
                let sample = UCITwoWayMeasurement.rangeSample(
                    timestamp: timestamp, status: raw[offset], nlos: raw[offset + 1], distance: UInt16(bitPattern: i16(2)),
                    azimuth: i16(4), azimuthFigureOfMerit: raw[offset + 6], elevation: i16(7), elevationFigureOfMerit: raw[offset + 9],
                    rssi: raw[offset + 17], includeAzimuth: includeAzimuth, includeElevation: includeElevation, dialect: dialect)
                try body(UCIPeerRangeSample(session: session, peer: peer, sample: sample))
            }
        }
    }
}
