import LowEnergy
import Testing

@Suite("In-memory data channel pair")
struct InMemoryDataChannelTests {
    @Test("messages cross in order; a message longer than the maximum is an error, never truncated")
    func roundTrip() async throws {
        let (app, accessory) = InMemoryDataChannel.makePair(maximumMessageLength: 20)
        #expect(app.maximumMessageLength == 20)
        try await app.send([0x0A])
        try await accessory.send([0x01, 0x02, 0x03])
        try await app.send([UInt8](repeating: 7, count: 20))
        await #expect(throws: BluetoothError.messageTooLong(length: 21, maximum: 20)) {
            try await app.send([UInt8](repeating: 7, count: 21))
        }
        var toAccessory = accessory.messages.makeAsyncIterator()
        #expect(await toAccessory.next() == [0x0A])
        #expect(await toAccessory.next() == [UInt8](repeating: 7, count: 20))
        var toApp = app.messages.makeAsyncIterator()
        #expect(await toApp.next() == [0x01, 0x02, 0x03])
    }

    @Test("link loss: both ends see the reason, sends fail, reconnect restores both")
    func linkLoss() async throws {
        let (app, accessory) = InMemoryDataChannel.makePair()
        var appEvents = app.events.makeAsyncIterator()
        var accessoryEvents = accessory.events.makeAsyncIterator()
        accessory.simulateLinkLoss(reason: .connectionTimeout)
        #expect(await appEvents.next() == .disconnected(reason: .connectionTimeout))
        #expect(await accessoryEvents.next() == .disconnected(reason: .connectionTimeout))
        #expect(!app.isConnected)
        await #expect(throws: BluetoothError.disconnected(reason: .connectionTimeout)) { try await app.send([1]) }
        try await app.reconnect(timeout: .seconds(1))
        #expect(await appEvents.next() == .reconnected(maximumMessageLength: 244))
        #expect(await accessoryEvents.next() == .reconnected(maximumMessageLength: 244))
        try await app.send([2])
        var messages = accessory.messages.makeAsyncIterator()
        #expect(await messages.next() == [2], "the message sent during the outage was not delivered")
    }

    @Test("closing one end ends its streams and tells the other end")
    func close() async throws {
        let (app, accessory) = InMemoryDataChannel.makePair()
        await accessory.close()
        var events = app.events.makeAsyncIterator()
        #expect(await events.next() == .disconnected(reason: .remoteUserTerminatedConnection))
        await #expect(throws: BluetoothError.self) { try await app.send([1]) }
        await #expect(throws: BluetoothError.disconnected(reason: .remoteUserTerminatedConnection)) {
            try await app.reconnect(timeout: .seconds(1))
        }
        var closedMessages = accessory.messages.makeAsyncIterator()
        #expect(await closedMessages.next() == nil)
    }
}
