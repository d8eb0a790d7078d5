@testable import LowEnergy
import Logging
import Synchronization
import Testing

@Suite("ATT and L2CAP codecs, ATT bearer")
struct ATTCodecTests {
    @Test("requests encode byte-exact")
    func requests() {
        #expect(ATTRequest.exchangeMTU(clientMTU: 247).bytes == [0x02, 0xF7, 0x00])
        #expect(ATTRequest.readByGroupType(start: 1, end: 0xFFFF, type: .primaryService).bytes
            == [0x10, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28])
        #expect(ATTRequest.findByTypeValue(start: 1, end: 0xFFFF, type: 0x2800, value: BluetoothUUID(0x180D).attBytes).bytes
            == [0x06, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28, 0x0D, 0x18])
        #expect(ATTRequest.readByType(start: 0x0E, end: 0x13, type: .characteristicDeclaration).bytes
            == [0x08, 0x0E, 0x00, 0x13, 0x00, 0x03, 0x28])
        #expect(ATTRequest.findInformation(start: 0x12, end: 0x13).bytes == [0x04, 0x12, 0x00, 0x13, 0x00])
        #expect(ATTRequest.read(handle: 0x0017).bytes == [0x0A, 0x17, 0x00])
        #expect(ATTRequest.readBlob(handle: 0x0017, offset: 246).bytes == [0x0C, 0x17, 0x00, 0xF6, 0x00])
        #expect(ATTRequest.write(handle: 0x0013, value: [0x01, 0x00]).bytes == [0x12, 0x13, 0x00, 0x01, 0x00])
        #expect(ATTPDU.writeCommand(handle: 0x0010, value: [0x0A]) == [0x52, 0x10, 0x00, 0x0A])
        let nus = BluetoothUUID("6E400001-B5A3-F393-E0A9-E50E24DCCA9E")!
        #expect(ATTRequest.readByType(start: 1, end: 2, type: nus).bytes.count == 5 + 16)
    }

    @Test("responses decode; Error Responses become named errors")
    func responses() throws {
        #expect(try ATTResponse.decode([0x03, 0x05, 0x02], for: .exchangeMTU(clientMTU: 247)) == .exchangeMTU(serverMTU: 517))
        let groups = try ATTResponse.decode([0x11, 0x06, 0x01, 0x00, 0x05, 0x00, 0x00, 0x18, 0x06, 0x00, 0x0D, 0x00, 0x01, 0x18],
                                            for: .readByGroupType(start: 1, end: 0xFFFF, type: .primaryService))
        #expect(groups == .readByGroupType([
            .init(start: 1, end: 5, value: [0x00, 0x18]), .init(start: 6, end: 0x0D, value: [0x01, 0x18]),
        ]))
        let info = try ATTResponse.decode([0x05, 0x01, 0x13, 0x00, 0x02, 0x29], for: .findInformation(start: 0x13, end: 0x13))
        #expect(info == .findInformation([.init(handle: 0x13, type: .clientCharacteristicConfiguration)]))
        #expect(try ATTResponse.decode([0x13], for: .write(handle: 1, value: [])) == .write)
        #expect(try ATTResponse.decode([0x1B, 0x10, 0x00], for: .read(handle: 1)) == nil, "not a response to this request")

        #expect {
            _ = try ATTResponse.decode([0x01, 0x0A, 0x20, 0x00, 0x05], for: .read(handle: 0x20))
        } throws: { error in
            guard case BluetoothError.attError(let code, let request, let handle) = error else { return false }
            let text = "\(error)"
            return code == .insufficientAuthentication && request == "Read Request" && handle == 0x20
                && text.contains("Insufficient Authentication") && text.contains("nearby setup --pair")
        }
        #expect(throws: BluetoothError.self) {
            _ = try ATTResponse.decode([0x09, 0x07, 0x0E, 0x00], for: .readByType(start: 1, end: 2, type: .characteristicDeclaration))
        }
    }

    @Test("L2CAP frames encode and decode")
    func l2cap() throws {
        let frame = L2CAPFrame(channel: 4, payload: [0x02, 0xF7, 0x00])
        #expect(frame.bytes == [0x03, 0x00, 0x04, 0x00, 0x02, 0xF7, 0x00])
        #expect(try L2CAPFrame(decoding: frame.bytes) == frame)
        #expect(throws: BluetoothError.self) { _ = try L2CAPFrame(decoding: [0x05, 0x00, 0x04, 0x00, 0x01]) }
    }

    @Test("LE signaling: valid parameter updates accepted, invalid rejected, unknown codes rejected")
    func signaling() {
        // Connection Parameter Update Request id 7: 24..40, latency 2, timeout 400.
        let request: [UInt8] = [0x12, 0x07, 0x08, 0x00, 0x18, 0x00, 0x28, 0x00, 0x02, 0x00, 0x90, 0x01]
        guard case .acceptParameters(let reply, let parameters) = LESignaling.handle(request) else {
            Issue.record("not accepted")
            return
        }
        #expect(reply == [0x13, 0x07, 0x02, 0x00, 0x00, 0x00])
        #expect(parameters.intervalMin == 24 && parameters.intervalMax == 40 && parameters.latency == 2 && parameters.supervisionTimeout == 400)

        let invalid: [UInt8] = [0x12, 0x08, 0x08, 0x00, 0x28, 0x00, 0x18, 0x00, 0x00, 0x00, 0x90, 0x01]
        #expect(LESignaling.handle(invalid) == .reply([0x13, 0x08, 0x02, 0x00, 0x01, 0x00]))
        #expect(LESignaling.handle([0x0A, 0x09, 0x02, 0x00, 0x02, 0x00]) == .reply([0x01, 0x09, 0x02, 0x00, 0x00, 0x00]))
        #expect(LESignaling.handle([0x14, 0x03, 0x0A, 0x00, 0x80, 0x00, 0x40, 0x00, 0x17, 0x00, 0x17, 0x00, 0x01, 0x00])
            == .reply([0x15, 0x03, 0x0A, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x00]))
        guard case .ignore = LESignaling.handle([0x13, 0x01, 0x02, 0x00, 0x00, 0x00]) else {
            Issue.record("a response must not be answered")
            return
        }
        guard case .ignore = LESignaling.handle([0x12, 0x01]) else {
            Issue.record("a malformed packet must be ignored")
            return
        }
    }

    @Test("the bearer routes notifications, confirms indications and answers the peer's requests")
    func bearerReceive() async throws {
        let sent = Mutex<[[UInt8]]>([])
        let bearer = ATTBearer(localMTU: 247, transactionTimeout: .seconds(5), logger: testLogger) { pdu in
            sent.withLock { $0.append(pdu) }
        }
        let (_, stream) = bearer.router.subscribe(handle: 0x0010)
        #expect(bearer.receive([0x1B, 0x10, 0x00, 0xAA, 0xBB]) == nil)
        #expect(bearer.receive([0x1D, 0x10, 0x00, 0xCC]) == [0x1E])
        #expect(bearer.receive([0x1B, 0x11, 0x00, 0xDD]) == nil, "no subscriber: dropped")
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next() == [0xAA, 0xBB])
        #expect(await iterator.next() == [0xCC])

        #expect(bearer.receive([0x02, 0x00, 0x01]) == [0x03, 0xF7, 0x00], "Exchange MTU answered with ours")
        #expect(bearer.mtu == 247)
        #expect(bearer.receive([0x10, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28]) == [0x01, 0x10, 0x01, 0x00, 0x0A])
        #expect(bearer.receive([0x0A, 0x03, 0x00]) == [0x01, 0x0A, 0x03, 0x00, 0x01])
        #expect(bearer.receive([0x3F, 0x00]) == [0x01, 0x3F, 0x00, 0x00, 0x06])
        #expect(bearer.receive([0x52, 0x03, 0x00, 0x01]) == nil, "commands are never answered")
    }

    @Test("a request gets its response; after a transaction timeout the bearer refuses further requests")
    func bearerRequests() async throws {
        let bearerBox = Mutex<ATTBearer?>(nil)
        let answer = Mutex(true)
        let bearer = ATTBearer(localMTU: 247, transactionTimeout: .seconds(2), logger: testLogger) { pdu in
            guard answer.withLock({ $0 }) else { return }
            if pdu == [0x02, 0xF7, 0x00] {
                let bearer = bearerBox.withLock { $0 }
                Task { _ = bearer?.receive([0x03, 0x05, 0x02]) }
            }
        }
        bearerBox.withLock { $0 = bearer }
        let response = try await bearer.request(.exchangeMTU(clientMTU: 247))
        #expect(response == .exchangeMTU(serverMTU: 517))
        #expect(bearer.negotiated(serverMTU: 517) == 247)
        await #expect(throws: BluetoothError.messageTooLong(length: 245, maximum: 244)) {
            try await bearer.writeCommand(handle: 1, value: [UInt8](repeating: 0, count: 245))
        }

        answer.withLock { $0 = false }
        await #expect {
            _ = try await bearer.request(.read(handle: 3))
        } throws: { error in
            guard case BluetoothError.timeout(let operation, _, _) = error else { return false }
            return operation.contains("Read Request")
        }
        answer.withLock { $0 = true }
        await #expect(throws: BluetoothError.self) { _ = try await bearer.request(.exchangeMTU(clientMTU: 247)) }
    }
}
