import Foundation
public import LowEnergy

/// The readable line for one advertiser, and whether a new report is worth another line:
/// `F0:F1:F2:F3:F4:F5 (random)      -52 dBm   "Tag"  services 180D  company 0x004C 0a0b`.
public struct ScanLine: Sendable, Hashable {
    /// The report's RSSI, dBm.
    public let rssi: Int?
    /// The whole line.
    public let text: String
    /// What the line says besides address and RSSI (name, services, data).
    public let content: String

    /// The line for `advertisement` (advertising and scan response data merged, repeats left out).
    public init(_ advertisement: Advertisement) {
        rssi = advertisement.rssi.map(Int.init)
        let data = advertisement.data
        var parts: [String] = []
        if let name = advertisement.name { parts.append("\"\(name)\"") }
        if !data.serviceUUIDs.isEmpty { parts.append("services " + data.serviceUUIDs.map(\.description).joined(separator: ",")) }
        // `data` merges advertising and scan response data, which often repeat each other.
        for field in data.manufacturerData {
            let text = "company 0x\(String(format: "%04X", field.companyIdentifier)) \(HexBytes.encode(field.data))"
            if !parts.contains(text) { parts.append(text) }
        }
        for field in data.serviceData {
            let text = "service data \(field.uuid) \(HexBytes.encode(field.data))"
            if !parts.contains(text) { parts.append(text) }
        }
        content = parts.joined(separator: "  ")
        let address = "\(advertisement.address) (\(advertisement.addressType))"
        let level = rssi.map { "\($0) dBm" } ?? "? dBm"
        text = "\(Self.padded(address, 27))  \(Self.padded(level, 8))  \(content)"
    }

    /// `true` if this line says something `last` did not: other content, or an RSSI 3 dB or
    /// more away (or known now and not then).
    public func differs(from last: ScanLine) -> Bool {
        if content != last.content { return true }
        switch (rssi, last.rssi) {
        case let (now?, before?): return abs(now - before) >= 3
        case (nil, nil): return false
        default: return true
        }
    }

    private static func padded(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}

/// `nearby scan`'s output, one advertising report at a time: a JSON object per report
/// (``AdvertisementJSON``), or a ``ScanLine`` when a device is first heard and whenever its
/// name, data or RSSI (by 3 dB or more) changes.
public struct ScanReport: Sendable {
    /// JSON objects instead of lines.
    public let json: Bool
    private var printed: [AccessoryCandidate.Key: ScanLine] = [:]

    /// A report in text or JSON form.
    public init(json: Bool) {
        self.json = json
    }

    /// What to print for `advertisement`, or `nil` when it adds nothing (text form only).
    public mutating func line(for advertisement: Advertisement) -> String? {
        if json { return AccessoryJSON.line(AdvertisementJSON(advertisement)) }
        let key = AccessoryCandidate.Key(address: advertisement.address, addressType: advertisement.addressType)
        let line = ScanLine(advertisement)
        if let last = printed[key], !line.differs(from: last) { return nil }
        printed[key] = line
        return line.text
    }
}
