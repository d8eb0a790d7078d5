public import Ranging

/// One OWR-AoA (one-way ranging, angle of arrival) measurement of SESSION_INFO_NTF, measurement
/// type 3: what an observer reports for each advertiser frame it received. 13 bytes with a
/// short address, 19 with an extended one (AOSP's and google/pica's UCI packet definitions,
/// `ShortAddressOwrAoaRangingMeasurement` / `ExtendedAddressOwrAoaRangingMeasurement`).
///
/// | Size | Field | Encoding |
/// |---|---|---|
/// | 2 (extended: 8) | MAC address of the advertiser | little-endian |
/// | 1 | status | ``UCIStatus`` |
/// | 1 | NLoS | 0 = line of sight |
/// | 1 | frame sequence number | |
/// | 2 | block index | |
/// | 2 + 1 | azimuth + FoM | Q9.7 degrees + 0...100 |
/// | 2 + 1 | elevation + FoM | Q9.7 degrees + 0...100 |
public struct UCIOWRAoAMeasurement: Sendable, Hashable {
    /// The size on the wire with short (`false`) or extended (`true`) addresses.
    public static func size(extended: Bool) -> Int { extended ? 19 : 13 }

    /// The advertiser's MAC address.
    public var macAddress: UCIMACAddress
    /// The measurement status (``UCIStatus/ok`` for a valid one).
    public var status: UCIStatus
    /// Line-of-sight indication: 0 line of sight, 0xFF unknown.
    public var nlos: UInt8
    /// The advertiser frame's sequence number.
    public var frameSequenceNumber: UInt8
    /// The block the frame was received in.
    public var blockIndex: UInt16
    /// Angle of arrival, azimuth.
    public var azimuth: UCIAngle
    /// Figure of merit of the azimuth, 0...100.
    public var azimuthFigureOfMerit: UInt8
    /// Angle of arrival, elevation.
    public var elevation: UCIAngle
    /// Figure of merit of the elevation, 0...100.
    public var elevationFigureOfMerit: UInt8

    /// Creates a measurement; angles default to 0° with FoM 0.
    public init(
        macAddress: UCIMACAddress, status: UCIStatus = .ok, nlos: UInt8 = 0, frameSequenceNumber: UInt8 = 0,
        blockIndex: UInt16 = 0, azimuth: UCIAngle = UCIAngle(rawValue: 0), azimuthFigureOfMerit: UInt8 = 0,
        elevation: UCIAngle = UCIAngle(rawValue: 0), elevationFigureOfMerit: UInt8 = 0
    ) {
        self.macAddress = macAddress
        self.status = status
        self.nlos = nlos
        self.frameSequenceNumber = frameSequenceNumber
        self.blockIndex = blockIndex
        self.azimuth = azimuth
        self.azimuthFigureOfMerit = azimuthFigureOfMerit
        self.elevation = elevation
        self.elevationFigureOfMerit = elevationFigureOfMerit
    }

    /// `true` if the status says the frame was measured.
    public var isValid: Bool { status.isValidMeasurement }

    /// The measurement as a `Ranging.RangeSample`: angles in degrees and the azimuth's figure
    /// of merit, no distance (one-way ranging measures none); an invalid one keeps only its
    /// status.
    public func rangeSample(timestamp: Double) -> RangeSample {
        guard isValid else { return RangeSample(timestamp: timestamp, status: status.rawValue) }
        return RangeSample(
            timestamp: timestamp, distance: nil, azimuth: azimuth.degrees, elevation: elevation.degrees,
            figureOfMerit: azimuthFigureOfMerit, isNonLineOfSight: nlos == 0 ? false : (nlos == 0xFF ? nil : true),
            rssi: nil, status: status.rawValue)
    }

    /// Reads one measurement.
    static func decode(_ r: inout UCIFieldReader, extended: Bool, index: Int) throws(UCIError) -> UCIOWRAoAMeasurement {
        let field = "OWR-AoA measurement \(index + 1)"
        let address: UCIMACAddress = extended ? .extended(try r.u64("\(field): MAC address")) : .short(try r.u16("\(field): MAC address"))
        return UCIOWRAoAMeasurement(
            macAddress: address, status: UCIStatus(rawValue: try r.u8("\(field): status")), nlos: try r.u8("\(field): NLoS"),
            frameSequenceNumber: try r.u8("\(field): frame sequence number"), blockIndex: try r.u16("\(field): block index"),
            azimuth: UCIAngle(bits: try r.u16("\(field): azimuth")), azimuthFigureOfMerit: try r.u8("\(field): azimuth FoM"),
            elevation: UCIAngle(bits: try r.u16("\(field): elevation")), elevationFigureOfMerit: try r.u8("\(field): elevation FoM"))
    }

    /// Appends the wire bytes.
    func encode(into w: inout ByteWriter) {
        w.append(macAddress.bytes)
        w.u8(status.rawValue)
        w.u8(nlos)
        w.u8(frameSequenceNumber)
        w.u16(blockIndex)
        w.u16(azimuth.bits)
        w.u8(azimuthFigureOfMerit)
        w.u16(elevation.bits)
        w.u8(elevationFigureOfMerit)
    }
}
