import NIProtocol
import Testing

/// Message framing: IDs, senders, unknown IDs, Qorvo's reserved and iOSNotify messages.
@Suite struct ProtocolMessageTests {
    @Test func appMessagesEncodeToTheirIDs() {
        #expect(NIMessage.initialize.encoded() == [0x0A])
        #expect(NIMessage.stop.encoded() == [0x0C])
        #expect(NIMessage.accessoryUWBDidStart.encoded() == [0x02])
        #expect(NIMessage.accessoryUWBDidStop.encoded() == [0x03])
        #expect(NIMessage.initialize.sender == .app)
        #expect(NIMessage.accessoryUWBDidStop.sender == .accessory)
        #expect(NIMessage.stop.dialect == nil)
    }

    @Test func anEmptyMessageIsATypedError() {
        let error = #expect(throws: NIProtocolError.self) { try NIMessage(decoding: []) }
        #expect(error?.reason == .emptyMessage)
        #expect(error?.description == "empty NI message: expected at least the 1-byte message ID")
    }

    @Test func unknownIDsAreKeptNotRejected() throws {
        for id in 0...255 where !NIMessageID.known.map(\.rawValue).contains(UInt8(id)) {
            let raw: [UInt8] = [UInt8(id), 0xDE, 0xAD]
            let message = try NIMessage(decoding: raw)
            #expect(message == .unknown(id: UInt8(id), payload: [0xDE, 0xAD]))
            #expect(message.encoded() == raw)
            #expect(message.sender == nil)
            #expect(message.id.name == nil)
        }
        #expect(NIMessageID(rawValue: 0x42).description == "0x42 (unknown)")
        #expect(NIMessageID.configureAndStart.description == "0x0B configureAndStart")
    }

    @Test("Qorvo's 0x20 / 0x21 / 0x22 (ble_niq.c, 2024-25): the reference's TV-4 to TV-7, byte for byte")
    func qorvoDeviceParametersVectors() throws {
        // TV-4: the app's 0x20 (any payload; apps send none) and the firmware's answer with its defaults.
        #expect(try NIMessage(decoding: [0x20]) == .getDeviceStruct(payload: []))
        #expect(try NIMessage(decoding: [0x20, 0x01]) == .getDeviceStruct(payload: [0x01]))
        let defaults = niBytes("20 01 01 01 02 03 09 0b 00 01 00 00 01 00 60 09 00 00 57 04 00 00 64 00 00 00 e0 47 00 00 01 00 00 00")
        #expect(defaults.count == 34)
        #expect(NIMessage.deviceStruct(QorvoDeviceParameters()).encoded() == defaults)
        let decoded = try NIMessage(decoding: defaults)
        #expect(decoded == .deviceStruct(QorvoDeviceParameters()))
        #expect(decoded.sender == .accessory && decoded.id == .getDeviceStruct)
        // TV-5: 0x21 with channel 5, session 0x12345678, source 0x0A0A, destination 0xB487.
        let set = niBytes("21 01 00 01 02 03 05 0b 00 01 0a 0a 87 b4 10 0e 64 00 78 56 34 12 c6 00 00 00 60 54 00 00 00 00 00 00")
        let parameters = QorvoDeviceParameters(
            role: 0, channel: 5, sourceAddress: 0x0A0A, destinationAddress: 0xB487, slotDurationRSTU: 3600, blockTimingStability: 100,
            sessionID: 0x1234_5678, blockDurationMS: 198, roundDurationRSTU: 21600, maxRangingRoundRetries: 0)
        #expect(try NIMessage(decoding: set) == .setDeviceStruct(parameters))
        #expect(NIMessage.setDeviceStruct(parameters).encoded() == set)
        #expect(NIMessage.setDeviceStruct(parameters).sender == .app)
        // TV-6: the acknowledgements.
        #expect(try NIMessage(decoding: [0x22, 0x00]) == .setDeviceStructAck(.ok))
        #expect(NIMessage.setDeviceStructAck(.badLength).encoded() == [0x22, 0x01])
        #expect(NIMessage.setDeviceStructAck(.badVersion).encoded() == [0x22, 0x02])
        #expect(QorvoDeviceParametersStatus(rawValue: 7).description == "status 0x07")
        // TV-7: what the firmware refuses: a 0x21 of another length (its status 1), an ack of another length.
        let short = #expect(throws: NIProtocolError.self) { try NIMessage(decoding: Array(set.dropLast())) }
        #expect(short?.messageID == .setDeviceStruct && short?.reason == .truncated(needed: 33, got: 32, isExact: true))
        let long = #expect(throws: NIProtocolError.self) { try NIMessage(decoding: set + [0]) }
        #expect(long?.reason == .trailingBytes(expected: 33, got: 34))
        #expect(throws: NIProtocolError.self) { try NIMessage(decoding: [0x22]) }
        #expect(throws: NIProtocolError.self) { try NIMessage(decoding: [0x22, 0, 0]) }
        // Another version decodes unchanged (the accessory answers bad version).
        var other = parameters
        other.version = 2
        #expect(try NIMessage(decoding: NIMessage.setDeviceStruct(other).encoded()) == .setDeviceStruct(other))
        #expect(NIMessageID.setDeviceStructAck.description == "0x22 setDeviceStructAck")
    }

    @Test func iOSNotifyBothWays() throws {
        let notification = try AccessoryNotification(distanceCentimetres: 30, text: "Close")
        #expect(notification.encoded() == niBytes("07 1e 43 6c 6f 73 65"))
        #expect(NIMessage.iOSNotify(notification).encoded() == niBytes("2f 07 1e 43 6c 6f 73 65"))
        let decoded = try NIMessage(decoding: niBytes("2f 07 1e 43 6c 6f 73 65"))
        #expect(decoded == .iOSNotify(notification))
        #expect(notification.text == "Close")
        #expect(notification.description == "30 cm \"Close\"")
        // Empty text: length 2.
        #expect(try AccessoryNotification(bytes: [2, 200]).distanceCentimetres == 200)
    }

    @Test func iOSNotifyLengthByteIsChecked() throws {
        let short = #expect(throws: NIProtocolError.self) { try AccessoryNotification(bytes: [1, 30]) }
        #expect(short?.field == "length")
        #expect(
            short?.reason
                == .outOfRange(value: 1, allowed: "2...255 (it counts itself, the distance byte and the text)"))
        let long = #expect(throws: NIProtocolError.self) {
            try AccessoryNotification(distanceCentimetres: 0, text: String(repeating: "x", count: 254))
        }
        #expect(long?.reason == .invalidLength(value: 254, allowed: "0...253 (UTF-8 bytes)"))
        #expect(
            try AccessoryNotification(distanceCentimetres: 0, text: String(repeating: "x", count: 253)).encoded().first
                == 255)
    }

    @Test func automaticDetectionTellsACutAppleACDFromAndroidData() throws {
        // 18 bytes of ACD whose byte 15 announces 21: an Apple ACD cut short, not Android data.
        let error = #expect(throws: NIProtocolError.self) { try NIMessage(decoding: Array(niTV1.prefix(19))) }
        #expect(error?.reason == .truncated(needed: 37, got: 18, isExact: true))
        #expect(error?.structure == "accessoryConfigurationData")
    }
}
