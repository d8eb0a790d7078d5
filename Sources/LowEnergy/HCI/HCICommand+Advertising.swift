extension HCICommand {
    // MARK: - Advertising (legacy commands, Core Vol 4 Part E 7.8.5-7.8.9)

    /// LE Set Advertising Parameters: connectable and scannable undirected advertising (ADV_IND)
    /// on all three primary channels, no filter.
    /// - Parameters:
    ///   - intervalMin: 0.625 ms units (0x0020...0x4000).
    ///   - intervalMax: 0.625 ms units (>= `intervalMin`).
    ///   - ownAddressType: public or random (the address set with LE Set Random Address).
    public static func leSetAdvertisingParameters(intervalMin: UInt16, intervalMax: UInt16,
                                                  ownAddressType: BluetoothAddressType) -> HCICommand {
        var parameters: [UInt8] = []
        parameters.appendLE(intervalMin)
        parameters.appendLE(intervalMax)
        parameters.append(0x00)  // ADV_IND
        parameters.append(ownAddressType.rawValue)
        parameters.append(0x00)  // peer address type (directed advertising only)
        parameters.append(contentsOf: [UInt8](repeating: 0, count: 6))
        parameters.append(0x07)  // channels 37, 38, 39
        parameters.append(0x00)  // no filter accept list
        return HCICommand(.leSetAdvertisingParameters, parameters)
    }

    /// LE Set Advertising Data: `data` (at most 31 bytes) padded to 31.
    /// - Precondition: `data.count <= 31` (``AdvertisingConfiguration/validationProblem`` checks it first).
    public static func leSetAdvertisingData(_ data: [UInt8]) -> HCICommand {
        precondition(data.count <= 31, "legacy advertising data is at most 31 bytes")
        return HCICommand(.leSetAdvertisingData, [UInt8(data.count)] + data + [UInt8](repeating: 0, count: 31 - data.count))
    }

    /// LE Set Scan Response Data: `data` (at most 31 bytes) padded to 31.
    /// - Precondition: `data.count <= 31`.
    public static func leSetScanResponseData(_ data: [UInt8]) -> HCICommand {
        precondition(data.count <= 31, "legacy scan response data is at most 31 bytes")
        return HCICommand(.leSetScanResponseData, [UInt8(data.count)] + data + [UInt8](repeating: 0, count: 31 - data.count))
    }

    /// LE Set Advertising Enable.
    public static func leSetAdvertisingEnable(_ enable: Bool) -> HCICommand {
        HCICommand(.leSetAdvertisingEnable, [enable ? 1 : 0])
    }

    // MARK: - Advertising (extended commands, Core Vol 4 Part E 7.8.52-7.8.56)

    /// The advertising event properties of a connectable, scannable, legacy-PDU set (ADV_IND
    /// sent through the extended commands, so every phone hears it).
    public static let legacyConnectableScannable: UInt16 = 0x0013

    /// LE Set Extended Advertising Parameters (v1) for set `handle`: legacy ADV_IND PDUs on the
    /// three primary channels, LE 1M, no preferred TX power.
    /// - Parameters:
    ///   - handle: the advertising set (0 ... 0xEF).
    ///   - intervalMin: 0.625 ms units (24 bits on the wire).
    ///   - intervalMax: 0.625 ms units.
    ///   - ownAddressType: the address the set advertises with (public or random).
    public static func leSetExtendedAdvertisingParameters(handle: UInt8, intervalMin: UInt16, intervalMax: UInt16,
                                                          ownAddressType: BluetoothAddressType) -> HCICommand {
        var parameters: [UInt8] = [handle]
        parameters.appendLE(legacyConnectableScannable)
        parameters += [UInt8(intervalMin & 0xFF), UInt8(intervalMin >> 8), 0]
        parameters += [UInt8(intervalMax & 0xFF), UInt8(intervalMax >> 8), 0]
        parameters.append(0x07)  // channels 37, 38, 39
        parameters.append(ownAddressType.rawValue)
        parameters.append(0x00)  // peer address type
        parameters.append(contentsOf: [UInt8](repeating: 0, count: 6))
        parameters.append(0x00)  // no filter accept list
        parameters.append(0x7F)  // no TX power preference
        parameters.append(0x01)  // primary PHY LE 1M
        parameters.append(0x00)  // secondary max skip
        parameters.append(0x01)  // secondary PHY LE 1M
        parameters.append(0x00)  // advertising SID
        parameters.append(0x00)  // no scan request notifications
        return HCICommand(.leSetExtendedAdvertisingParameters, parameters)
    }

    /// LE Set Advertising Set Random Address: the random address set `handle` advertises from.
    public static func leSetAdvertisingSetRandomAddress(handle: UInt8, address: BluetoothAddress) -> HCICommand {
        HCICommand(.leSetAdvertisingSetRandomAddress, [handle] + address.littleEndianBytes)
    }

    /// LE Set Extended Advertising Data: the complete data of set `handle` in one operation
    /// (operation 0x03, no fragmentation by the controller).
    /// - Precondition: `data.count <= 251`.
    public static func leSetExtendedAdvertisingData(handle: UInt8, _ data: [UInt8]) -> HCICommand {
        precondition(data.count <= 251, "one extended advertising data operation carries at most 251 bytes")
        return HCICommand(.leSetExtendedAdvertisingData, [handle, 0x03, 0x01, UInt8(data.count)] + data)
    }

    /// LE Set Extended Scan Response Data: the complete scan response of set `handle`.
    /// - Precondition: `data.count <= 251`.
    public static func leSetExtendedScanResponseData(handle: UInt8, _ data: [UInt8]) -> HCICommand {
        precondition(data.count <= 251, "one extended scan response data operation carries at most 251 bytes")
        return HCICommand(.leSetExtendedScanResponseData, [handle, 0x03, 0x01, UInt8(data.count)] + data)
    }

    /// LE Set Extended Advertising Enable for set `handle`, advertising until disabled (no
    /// duration, no event limit).
    public static func leSetExtendedAdvertisingEnable(_ enable: Bool, handle: UInt8) -> HCICommand {
        HCICommand(.leSetExtendedAdvertisingEnable, [enable ? 1 : 0, 1, handle, 0, 0, 0])
    }
}
