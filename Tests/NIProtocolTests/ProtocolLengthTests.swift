import NIProtocol
import Testing

/// Every length check: length bytes, truncation at every offset, trailing bytes.
@Suite struct ProtocolLengthTests {
    static let uwbLengthsText = "19...64 (19 v1.0, 21 v1.1, 32 v2.0; bytes past the layout are kept as extra bytes)"

    @Test func everyUnusableUWBConfigDataLengthIsNamed() throws {
        for length in 0...255 where !(19...64).contains(length) {
            var message = niTV1
            message[16] = UInt8(length)
            let error = #expect(throws: NIProtocolError.self) { try NIMessage(decoding: message, dialect: .apple) }
            #expect(error?.field == "uwbConfigDataLength")
            #expect(error?.reason == .invalidLength(value: length, allowed: Self.uwbLengthsText))
            #expect(error?.messageID == .accessoryConfigurationData)
        }
        var message = niTV1
        message[16] = 12
        let error = #expect(throws: NIProtocolError.self) { try NIMessage(decoding: message, dialect: .apple) }
        #expect(
            error?.description
                == "message 0x01 accessoryConfigurationData: accessoryConfigurationData: uwbConfigDataLength 12 is not one of \(Self.uwbLengthsText)"
        )
    }

    /// Lengths between the layouts, up to Qorvo's 64-byte buffer, and bytes after the UWB config
    /// data parse: the longest layout that fits is read, every other byte is kept and encoded
    /// back. TV-1 announcing 19: the 1.0 layout, the drift bytes become trailing bytes.
    @Test func lenientLengthsKeepEveryByte() throws {
        for announced in 19...21 {
            var message = niTV1
            message[16] = UInt8(announced)
            guard case .accessoryConfigurationData(let acd) = try NIMessage(decoding: message, dialect: .apple) else {
                Issue.record("expected an ACD")
                continue
            }
            #expect(acd.uwbConfiguration.deviceAddress == 0x0012)
            #expect(acd.uwbConfiguration.version == (announced == 21 ? .v1_1 : .v1_0))
            #expect(acd.uwbConfiguration.extraBytes.count == (announced == 20 ? 1 : 0))
            #expect(acd.trailingBytes.count == 21 - announced)
            #expect(acd.hasUnknownBytes == (announced != 21))
            #expect(NIMessage.accessoryConfigurationData(acd).encoded() == message)
        }
        // Qorvo's struct: 64 bytes of UWB config data (TV-1's spec 1.1 data + 43 bytes), then 3
        // more. The spec version names the layout (1.1): the answer will be what Qorvo accepts.
        let extra: [UInt8] = Array(0..<43)
        let padded: [UInt8] = Array(niTV1.prefix(16)) + [64] + Array(niTV1.dropFirst(17)) + extra + [0xF0, 0xF1, 0xF2]
        guard case .accessoryConfigurationData(let acd) = try NIMessage(decoding: padded) else {
            Issue.record("expected an ACD")
            return
        }
        #expect(acd.uwbConfiguration.version == ConfigurationDataVersion.v1_1)
        #expect(acd.uwbConfiguration.extraBytes == extra && acd.trailingBytes == [0xF0, 0xF1, 0xF2])
        #expect(acd.uwbConfiguration.maxClockDriftPPM == 25)
        #expect(NIMessage.accessoryConfigurationData(acd).encoded() == padded)
        // A spec version naming no layout that fits: the longest that does (34 bytes → 2.0).
        var newer = Array(padded.prefix(17 + 21)) + Array(repeating: 0, count: 13)
        newer[16] = 34
        newer[17] = 3
        guard case .accessoryConfigurationData(let v3) = try NIMessage(decoding: newer) else {
            Issue.record("expected an ACD")
            return
        }
        #expect(v3.uwbConfiguration.version == ConfigurationDataVersion.v2_0 && v3.uwbConfiguration.extraBytes.count == 2)
        #expect(UWBConfigurationData.layout(forByteCount: 32, specVersion: .v1_1) == .v2_0, "the standard lengths decide alone")
        #expect(throws: NIProtocolError.self) {
            try UWBConfigurationData(
                manufacturerID: 0, modelID: 0, middlewareVersion: 0, rangingRole: .initiator, deviceAddress: 0,
                extraBytes: Array(repeating: 0, count: 46))
        }
    }

    @Test func everyInvalidShareableLengthIsNamed() throws {
        for length in 0...255 where ![23, 25, 30].contains(length) {
            var payload = niTV2
            payload[4] = UInt8(length)
            let error = #expect(throws: NIProtocolError.self) { try ShareableConfigurationData(bytes: payload) }
            #expect(error?.field == "shareableDataLength")
            #expect(error?.reason == .invalidLength(value: length, allowed: "23 (v1.0), 25 (v1.1), 30 (v2.0)"))
        }
    }

    @Test func uwbConfigurationDataOfAnUnusableLengthIsRejected() throws {
        for length in Array(0...18) + Array(65...80) {
            let error = #expect(throws: NIProtocolError.self) {
                try UWBConfigurationData(bytes: Array(repeating: 0, count: length))
            }
            #expect(error?.reason == .invalidLength(value: length, allowed: Self.uwbLengthsText))
        }
        for length in 19...64 {
            let uwb = try UWBConfigurationData(bytes: Array(repeating: 0, count: length))
            #expect(uwb.byteCount == length && uwb.encoded().count == length)
        }
    }

    /// Every proper prefix of a valid message fails with `truncated` (or `emptyMessage`), in the
    /// message's own dialect; every prefix also fails with automatic detection.
    @Test(arguments: [
        ("TV-1", niTV1, NIDialect.apple),
        ("TV-2", [0x0B] + niTV2, .apple),
        ("ACD 2.0", ProtocolLengthTests.acdVersion2Message, .apple),
        ("shareable 2.0", ProtocolLengthTests.shareableVersion2Message, .apple),
        ("Android device", [0x01] + ProtocolAndroidTests.deviceBytes, .android),
        ("Android phone", [0x0B] + ProtocolAndroidTests.phoneBytes, .android),
        ("iOSNotify", niBytes("2f 07 1e 43 6c 6f 73 65"), .apple),
    ])
    func truncationAtEveryOffset(name: String, message: [UInt8], dialect: NIDialect) throws {
        #expect(try NIMessage(decoding: message, dialect: dialect).encoded() == message, "\(name) must decode whole")
        for length in 0..<message.count {
            let prefix = Array(message.prefix(length))
            let error = #expect(throws: NIProtocolError.self, "\(name) cut at \(length)") {
                try NIMessage(decoding: prefix, dialect: dialect)
            }
            switch error?.reason {
            case .emptyMessage?:
                #expect(length == 0)
            case .truncated(let needed, let got, _)?:
                #expect(got == length - 1, "\(name) cut at \(length): got counts payload bytes")
                #expect(needed > got)
                #expect(error?.messageID?.rawValue == message[0])
                #expect(error?.description.contains("ATT_MTU >= ") == true)
            default:
                Issue.record("\(name) cut at \(length): expected truncated, got \(String(describing: error))")
            }
            #expect(throws: NIProtocolError.self, "\(name) cut at \(length), automatic") {
                try NIMessage(decoding: prefix)
            }
        }
        // One byte too many: the accessory's configuration data keeps it (lenient); everything
        // else refuses it.
        if message[0] == 0x01 {
            #expect(try NIMessage(decoding: message + [0], dialect: dialect).encoded() == message + [0], "\(name) + 1 byte")
            return
        }
        let error = #expect(throws: NIProtocolError.self) { try NIMessage(decoding: message + [0], dialect: dialect) }
        if case .trailingBytes(let expected, let got)? = error?.reason {
            #expect(expected == message.count - 1 && got == message.count)
        } else {
            Issue.record("\(name) + 1 byte: expected trailingBytes, got \(String(describing: error))")
        }
    }

    @Test func truncationMessageNamesTheNeededLengthAndMTU() throws {
        let error = #expect(throws: NIProtocolError.self) {
            try NIMessage(decoding: Array(niTV1.prefix(21)), dialect: .apple)
        }
        #expect(
            error?.description
                == "message 0x01 accessoryConfigurationData: truncated: accessoryConfigurationData needs 37 bytes, got 20; a BLE write or notification carries at most ATT_MTU - 3 bytes, so the link needs ATT_MTU >= 41 for this message"
        )
        let header = #expect(throws: NIProtocolError.self) { try AccessoryConfigurationData(bytes: [1, 0, 0]) }
        #expect(header?.description == "truncated: accessoryConfigurationData needs at least 16 bytes, got 3")
    }

    @Test(arguments: [NIMessageID.accessoryUWBDidStart, .accessoryUWBDidStop, .initialize, .stop, .androidInitialize])
    func messagesWithoutPayloadRejectExtraBytes(id: NIMessageID) throws {
        let message = try NIMessage(decoding: [id.rawValue])
        #expect(message.encoded() == [id.rawValue])
        #expect(message.payload.isEmpty)
        let error = #expect(throws: NIProtocolError.self) { try NIMessage(decoding: [id.rawValue, 1, 2, 3]) }
        #expect(error?.reason == .trailingBytes(expected: 0, got: 3))
        #expect(error?.messageID == id)
    }

    static let acdVersion2Message: [UInt8] = {
        let uwb = try! ProtocolVersionTests.uwb(.v2_0)
        return NIMessage.accessoryConfigurationData(try! AccessoryConfigurationData(uwbConfiguration: uwb)).encoded()
    }()

    static let shareableVersion2Message: [UInt8] =
        [0x0B] + niBytes("02 00 00 00 | 1e | \(ProtocolVersionTests.shareableCommon) | 19 00 | 04 03 02 01 | 01")
}
