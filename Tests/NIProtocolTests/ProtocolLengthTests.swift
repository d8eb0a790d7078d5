import NIProtocol
import Testing

/// Every length check: length bytes, truncation at every offset, trailing bytes.
@Suite struct ProtocolLengthTests {
    @Test func everyInvalidUWBConfigDataLengthIsNamed() throws {
        for length in 0...255 where ![19, 21, 32].contains(length) {
            var message = niTV1
            message[16] = UInt8(length)
            let error = #expect(throws: NIProtocolError.self) { try NIMessage(decoding: message, dialect: .apple) }
            #expect(error?.field == "uwbConfigDataLength")
            #expect(error?.reason == .invalidLength(value: length, allowed: "19 (v1.0), 21 (v1.1), 32 (v2.0)"))
            #expect(error?.messageID == .accessoryConfigurationData)
        }
        var message = niTV1
        message[16] = 20
        let error = #expect(throws: NIProtocolError.self) { try NIMessage(decoding: message, dialect: .apple) }
        #expect(
            error?.description
                == "message 0x01 accessoryConfigurationData: accessoryConfigurationData: uwbConfigDataLength 20 is not one of 19 (v1.0), 21 (v1.1), 32 (v2.0)"
        )
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

    @Test func uwbConfigurationDataOfAWrongLengthIsRejected() throws {
        for length in 0...40 where ![19, 21, 32].contains(length) {
            let error = #expect(throws: NIProtocolError.self) {
                try UWBConfigurationData(bytes: Array(repeating: 0, count: length))
            }
            #expect(error?.reason == .invalidLength(value: length, allowed: "19 (v1.0), 21 (v1.1), 32 (v2.0)"))
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
        // One byte too many.
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
