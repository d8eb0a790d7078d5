public import Ranging

/// One two-way-ranging (TWR) measurement of SESSION_INFO_NTF: 31 bytes on the wire.
///
/// | Size | Field | Encoding |
/// |---|---|---|
/// | 2 (extended: 8) | MAC address | little-endian |
/// | 1 | status | ``UCIStatus``: 0 OK, 0x1B distance is negative |
/// | 1 | NLoS | 0 = line of sight |
/// | 2 | distance | centimetres |
/// | 2 + 1 (× 4) | azimuth, elevation, destination azimuth, destination elevation, each + FoM | Q9.7 degrees + 0...100 |
/// | 1 | slot index | |
/// | 1 | RSSI | Q7.1 of −dBm: dBm = −raw / 2 |
/// | 11 (extended: 5) | reserved | written as zero, ignored when decoding |
///
/// A plain value with no references: decoding one allocates nothing.
public struct UCITwoWayMeasurement: Sendable, Hashable {
    /// The size of one measurement on the wire, with short or extended addresses alike.
    public static let size = 31

    /// The peer's MAC address.
    public var macAddress: UCIMACAddress
    /// The measurement status: ``UCIStatus/ok`` or ``UCIStatus/okNegativeDistance`` for a valid
    /// measurement; anything else (``UCIStatus/rangingRXTimeout``, ...) means no measurement.
    public var status: UCIStatus
    /// Line-of-sight indication: 0 line of sight, 1 non-line of sight, 0xFF unknown (FiRa;
    /// values other than 0 are not confirmed by the public sources).
    public var nlos: UInt8
    /// The distance in centimetres (its magnitude when the status is OK_NEGATIVE_DISTANCE).
    public var distance: UInt16
    /// Angle of arrival, azimuth.
    public var azimuth: UCIAngle
    /// Figure of merit of the azimuth, 0...100.
    public var azimuthFigureOfMerit: UInt8
    /// Angle of arrival, elevation.
    public var elevation: UCIAngle
    /// Figure of merit of the elevation, 0...100.
    public var elevationFigureOfMerit: UInt8
    /// The azimuth the peer measured (when it reports it).
    public var destinationAzimuth: UCIAngle
    /// Figure of merit of the destination azimuth.
    public var destinationAzimuthFigureOfMerit: UInt8
    /// The elevation the peer measured.
    public var destinationElevation: UCIAngle
    /// Figure of merit of the destination elevation.
    public var destinationElevationFigureOfMerit: UInt8
    /// The slot index of the measurement in the round.
    public var slotIndex: UInt8
    /// RSSI, raw: Q7.1 of −dBm (0x90 = −72 dBm). 0 means not reported.
    public var rssi: UInt8

    /// Creates a measurement; angles default to 0° with FoM 0.
    @inlinable
    public init(
        macAddress: UCIMACAddress, status: UCIStatus = .ok, nlos: UInt8 = 0, distance: UInt16,
        azimuth: UCIAngle = UCIAngle(rawValue: 0), azimuthFigureOfMerit: UInt8 = 0,
        elevation: UCIAngle = UCIAngle(rawValue: 0), elevationFigureOfMerit: UInt8 = 0,
        destinationAzimuth: UCIAngle = UCIAngle(rawValue: 0), destinationAzimuthFigureOfMerit: UInt8 = 0,
        destinationElevation: UCIAngle = UCIAngle(rawValue: 0), destinationElevationFigureOfMerit: UInt8 = 0,
        slotIndex: UInt8 = 0, rssi: UInt8 = 0
    ) {
        self.macAddress = macAddress
        self.status = status
        self.nlos = nlos
        self.distance = distance
        self.azimuth = azimuth
        self.azimuthFigureOfMerit = azimuthFigureOfMerit
        self.elevation = elevation
        self.elevationFigureOfMerit = elevationFigureOfMerit
        self.destinationAzimuth = destinationAzimuth
        self.destinationAzimuthFigureOfMerit = destinationAzimuthFigureOfMerit
        self.destinationElevation = destinationElevation
        self.destinationElevationFigureOfMerit = destinationElevationFigureOfMerit
        self.slotIndex = slotIndex
        self.rssi = rssi
    }

    /// `true` if the status says the round produced a distance.
    @inlinable public var isValid: Bool { status.isValidMeasurement }

    /// The signed distance in metres: `distance / 100`, negative if the status is
    /// OK_NEGATIVE_DISTANCE (0x1B).
    @inlinable
    public var distanceInMeters: Double {
        let meters = Double(distance) / 100
        return status.rawValue == 0x1B ? -meters : meters
    }

    /// The RSSI in dBm (`-rssi / 2`), or `nil` if not reported (raw 0).
    @inlinable public var rssiInDBm: Double? { rssi == 0 ? nil : -Double(rssi) / 2 }

    /// `true` for line of sight (NLoS 0), `false` for non-line of sight, `nil` for 0xFF
    /// (unknown).
    @inlinable
    public var isNonLineOfSight: Bool? {
        switch nlos {
        case 0: false
        case 0xFF: nil
        default: true
        }
    }

    /// The measurement as a `Ranging.RangeSample`.
    ///
    /// Distance in metres (negative for status 0x1B), angles in degrees, figure of merit from the
    /// azimuth (TWR reports no FoM for the distance), NLoS flag, RSSI in dBm (`nil` if 0). An
    /// invalid measurement keeps only its status. Angles are left out when the session does not
    /// request them (AOA_RESULT_REQ): the UWBS then reports zeros.
    /// - Parameters:
    ///   - timestamp: when the notification arrived, in seconds on a monotonic clock.
    ///   - includeAzimuth: report the azimuth (default `true`).
    ///   - includeElevation: report the elevation (default `true`).
    ///   - dialect: how the UWBS encodes angles and RSSI (default FiRa's; ``UCIMeasurementDialect``).
    @inlinable
    public func rangeSample(
        timestamp: Double, includeAzimuth: Bool = true, includeElevation: Bool = true, dialect: UCIMeasurementDialect = .fira
    ) -> RangeSample {
        Self.rangeSample(
            timestamp: timestamp, status: status.rawValue, nlos: nlos, distance: distance, azimuth: azimuth.rawValue,
            azimuthFigureOfMerit: azimuthFigureOfMerit, elevation: elevation.rawValue, elevationFigureOfMerit: elevationFigureOfMerit,
            rssi: rssi, includeAzimuth: includeAzimuth, includeElevation: includeElevation, dialect: dialect)
    }

    /// The conversion rules of ``rangeSample(timestamp:includeAzimuth:includeElevation:)`` on raw
    /// wire values, shared with ``UCISessionInfoView/forEachSample(timestamp:includeAzimuth:includeElevation:_:)``
    /// (which reads them straight from the bytes).
    @inlinable
    static func rangeSample(
        timestamp: Double, status: UInt8, nlos: UInt8, distance: UInt16, azimuth: Int16, azimuthFigureOfMerit: UInt8,
        elevation: Int16, elevationFigureOfMerit: UInt8, rssi: UInt8, includeAzimuth: Bool, includeElevation: Bool,
        dialect: UCIMeasurementDialect = .fira
    ) -> RangeSample {
        guard status == 0x00 || status == 0x1B else { return RangeSample(timestamp: timestamp, status: status) }
        let meters = Double(distance) / 100
        return RangeSample(
            timestamp: timestamp,
            distance: status == 0x1B ? -meters : meters,
            azimuth: includeAzimuth ? dialect.degrees(azimuth) : nil,
            elevation: includeElevation ? dialect.degrees(elevation) : nil,
            figureOfMerit: includeAzimuth ? azimuthFigureOfMerit : (includeElevation ? elevationFigureOfMerit : nil),
            isNonLineOfSight: nlos == 0 ? false : (nlos == 0xFF ? nil : true),
            rssi: dialect.rssi(rssi),
            status: status)
    }
}

extension UCITwoWayMeasurement {
    /// Decodes the measurement at `offset` of `bytes`; the caller checked that 31 bytes are there.
    @inlinable
    static func decode(_ bytes: UnsafeRawBufferPointer, at offset: Int, extended: Bool) -> UCITwoWayMeasurement {
        func u16(_ at: Int) -> UInt16 {
            UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt16.self))
        }
        let address: UCIMACAddress
        var i = offset
        if extended {
            address = .extended(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)))
            i += 8
        } else {
            address = .short(u16(i))
            i += 2
        }
        return UCITwoWayMeasurement(
            macAddress: address, status: UCIStatus(rawValue: bytes[i]), nlos: bytes[i + 1], distance: u16(i + 2),
            azimuth: UCIAngle(bits: u16(i + 4)), azimuthFigureOfMerit: bytes[i + 6],
            elevation: UCIAngle(bits: u16(i + 7)), elevationFigureOfMerit: bytes[i + 9],
            destinationAzimuth: UCIAngle(bits: u16(i + 10)), destinationAzimuthFigureOfMerit: bytes[i + 12],
            destinationElevation: UCIAngle(bits: u16(i + 13)), destinationElevationFigureOfMerit: bytes[i + 15],
            slotIndex: bytes[i + 16], rssi: bytes[i + 17])
    }

    /// Appends the 31 wire bytes.
    func encode(into w: inout ByteWriter) {
        switch macAddress {
        case .short(let value): w.u16(value)
        case .extended(let value): w.u64(value)
        }
        w.u8(status.rawValue)
        w.u8(nlos)
        w.u16(distance)
        w.u16(azimuth.bits)
        w.u8(azimuthFigureOfMerit)
        w.u16(elevation.bits)
        w.u8(elevationFigureOfMerit)
        w.u16(destinationAzimuth.bits)
        w.u8(destinationAzimuthFigureOfMerit)
        w.u16(destinationElevation.bits)
        w.u8(destinationElevationFigureOfMerit)
        w.u8(slotIndex)
        w.u8(rssi)
        w.append(repeatElement(0, count: macAddress.isExtended ? 5 : 11))
    }
}
