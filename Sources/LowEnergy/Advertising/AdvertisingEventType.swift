/// What kind of advertising PDU a report came from, in the extended-report bit layout (Core
/// Vol 4 Part E 7.7.65.13): connectable, scannable, directed, scan response, legacy, data status.
///
/// Legacy reports (LE Advertising Report, subevent 0x02) are mapped to the same layout, so
/// `ADV_IND` is `0x13` whichever report format the controller used.
public struct AdvertisingEventType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The extended event type bits.
    public let rawValue: UInt16

    /// Creates an event type from extended-report bits.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Maps a legacy report's event type (0x00 ADV_IND ... 0x04 SCAN_RSP).
    /// - Returns: `nil` for reserved values.
    public init?(legacy code: UInt8) {
        switch code {
        case 0x00: self = .advInd
        case 0x01: self = .advDirectInd
        case 0x02: self = .advScanInd
        case 0x03: self = .advNonconnInd
        case 0x04: self = .scanResponseToAdvInd
        default: return nil
        }
    }

    /// Legacy ADV_IND: connectable, scannable, undirected.
    public static let advInd = AdvertisingEventType(rawValue: 0x13)
    /// Legacy ADV_DIRECT_IND: connectable, directed.
    public static let advDirectInd = AdvertisingEventType(rawValue: 0x15)
    /// Legacy ADV_SCAN_IND: scannable, not connectable.
    public static let advScanInd = AdvertisingEventType(rawValue: 0x12)
    /// Legacy ADV_NONCONN_IND: neither connectable nor scannable.
    public static let advNonconnInd = AdvertisingEventType(rawValue: 0x10)
    /// Legacy SCAN_RSP to an ADV_IND.
    public static let scanResponseToAdvInd = AdvertisingEventType(rawValue: 0x1B)
    /// Legacy SCAN_RSP to an ADV_SCAN_IND.
    public static let scanResponseToAdvScanInd = AdvertisingEventType(rawValue: 0x1A)

    /// The advertiser accepts connections.
    public var isConnectable: Bool { rawValue & 0x01 != 0 }
    /// The advertiser accepts scan requests.
    public var isScannable: Bool { rawValue & 0x02 != 0 }
    /// Directed at one device.
    public var isDirected: Bool { rawValue & 0x04 != 0 }
    /// This report is a scan response.
    public var isScanResponse: Bool { rawValue & 0x08 != 0 }
    /// A legacy (Bluetooth 4.x) PDU.
    public var isLegacy: Bool { rawValue & 0x10 != 0 }

    /// Whether the report's data is complete (extended advertising may split it over reports).
    public var dataStatus: DataStatus {
        switch (rawValue >> 5) & 0x03 {
        case 0: return .complete
        case 1: return .incompleteMoreToCome
        default: return .incompleteTruncated
        }
    }

    /// Completeness of a report's data.
    public enum DataStatus: Sendable, Hashable {
        /// All of the data.
        case complete
        /// Part of the data; more reports follow.
        case incompleteMoreToCome
        /// Part of the data; the rest was lost.
        case incompleteTruncated
    }

    /// The type without the data-status bits (identifies one advertising event across fragments).
    var withoutDataStatus: AdvertisingEventType { AdvertisingEventType(rawValue: rawValue & ~0x60) }

    /// `"ADV_IND"`, `"SCAN_RSP"`, ... for legacy PDUs; `"extended connectable scannable"` etc.
    public var description: String {
        switch rawValue & ~0x60 {
        case 0x13: return "ADV_IND"
        case 0x15: return "ADV_DIRECT_IND"
        case 0x12: return "ADV_SCAN_IND"
        case 0x10: return "ADV_NONCONN_IND"
        case 0x1A, 0x1B: return "SCAN_RSP"
        default:
            var words = [isLegacy ? "legacy" : "extended"]
            if isConnectable { words.append("connectable") }
            if isScannable { words.append("scannable") }
            if isDirected { words.append("directed") }
            if isScanResponse { words.append("scan response") }
            if words.count == 1 { words.append("non-connectable") }
            return words.joined(separator: " ")
        }
    }
}
