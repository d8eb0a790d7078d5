/// The vendor-specific part of an NXP UWBS's CORE_GET_DEVICE_INFO_RSP (SR1xx firmware), as
/// NXP's UWB IoT middleware reads it (`parseDeviceInfo` in `UwbApi_Internal.c`): one
/// `[parameter ID][length][value]` entry after another. Only what the accessory role needs is
/// kept: the device name (ID 0x00, ASCII, e.g. `SR150_PROD_IOT_ROW`) and the firmware version
/// (ID 0x01, 3 bytes: major, minor, RC).
public struct NXPDeviceInformation: Sendable, Hashable {
    /// The device name, `nil` if not reported.
    public var deviceName: String?
    /// The firmware version bytes (major, minor, RC), `nil` if not reported.
    public var firmwareVersion: [UInt8]?

    /// Creates the information.
    public init(deviceName: String? = nil, firmwareVersion: [UInt8]? = nil) {
        self.deviceName = deviceName
        self.firmwareVersion = firmwareVersion
    }

    /// Parses NXP's entries; `nil` when the bytes are not a well-formed list of entries or carry
    /// neither the device name nor the firmware version (another vendor's information).
    public init?(vendorInfo bytes: [UInt8]) {
        var index = 0
        var name: String?
        var firmware: [UInt8]?
        while index < bytes.count {
            guard index + 2 <= bytes.count else { return nil }
            let id = bytes[index]
            let length = Int(bytes[index + 1])
            index += 2
            guard index + length <= bytes.count else { return nil }
            let value = Array(bytes[index..<(index + length)])
            index += length
            switch id {
            case 0x00:
                guard value.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
                name = String(decoding: value, as: UTF8.self)
            case 0x01:
                guard length == 3 else { return nil }
                firmware = value
            default:
                continue
            }
        }
        guard name != nil || firmware != nil else { return nil }
        self.init(deviceName: name, firmwareVersion: firmware)
    }

    /// Encodes the entries (name first, then firmware version), as an NXP UWBS sends them.
    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        if let deviceName {
            let name = Array(deviceName.utf8.prefix(255))
            bytes += [0x00, UInt8(name.count)] + name
        }
        if let firmwareVersion {
            bytes += [0x01, UInt8(firmwareVersion.count)] + firmwareVersion
        }
        return bytes
    }
}

extension UCIDeviceInfo {
    /// The vendor information read as NXP's (``NXPDeviceInformation``), `nil` if it is not.
    public var nxpInformation: NXPDeviceInformation? { NXPDeviceInformation(vendorInfo: vendorInfo) }
}
