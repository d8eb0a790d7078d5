import Foundation
import LowEnergy

/// Advertisements from real AD bytes, for tests without a radio.
enum Fixtures {
    static let nus = DataChannelService.nordicUART.service

    /// Flags, complete 128-bit list [NUS], manufacturer data 0x004C 0a0b0c, service data FE9A 0102, name "Tag-Kitchen".
    static let typicalBytes: [UInt8] =
        [0x02, 0x01, 0x06]
        + [0x11, 0x07] + DataChannelService.nordicUART.service.littleEndianBytes(size: 16)!
        + [0x06, 0xFF, 0x4C, 0x00, 0x0A, 0x0B, 0x0C]
        + [0x05, 0x16, 0x9A, 0xFE, 0x01, 0x02]
        + [0x0C, 0x09] + Array("Tag-Kitchen".utf8)

    static func advertisement(_ bytes: [UInt8], address: String = "F0:F1:F2:F3:F4:F5", type: BluetoothAddressType = .random,
                              rssi: Int8? = -60, eventType: AdvertisingEventType = .advInd,
                              at timestamp: ContinuousClock.Instant = .now) -> Advertisement {
        let data = AdvertisingData(parsing: bytes)
        return Advertisement(address: BluetoothAddress(address)!, addressType: type, rssi: rssi, eventType: eventType,
                             reportData: data, data: data, txPower: nil, timestamp: timestamp)
    }

    static var typical: Advertisement { advertisement(typicalBytes) }
}

/// A fresh directory under /tmp, removed by `remove()`.
struct TemporaryDirectory {
    let path: String

    init() {
        var template = Array("/tmp/nearby-accessories-XXXXXX".utf8CString)
        let result = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(result != nil, "mkdtemp failed")
        path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func file(_ name: String) -> String { path + "/" + name }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}
