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

    @Test func reservedQorvoMessagesKeepTheirPayload() throws {
        #expect(try NIMessage(decoding: [0x20]) == .getDeviceStruct(payload: []))
        #expect(try NIMessage(decoding: [0x21, 1, 2, 3]) == .setDeviceStruct(payload: [1, 2, 3]))
        #expect(NIMessage.setDeviceStruct(payload: [9]).encoded() == [0x21, 9])
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
