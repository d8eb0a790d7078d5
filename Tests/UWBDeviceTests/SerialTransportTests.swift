import NearbyTestSupport
import Testing
import UWBDevice

@Suite struct SerialTransportTests {
    @Test func carriesPacketsByteExactBothWaysOverAPseudoTerminal() async throws {
        let board = try SerialPtyBoard(responder: Vectors.responder)
        let transport = SerialTransport(path: board.path, baud: 115_200)
        #expect(transport.name == "serial:\(board.path)@115200")
        let packets = PacketCollector(try await transport.open())
        try await transport.send(Vectors.getDeviceInfo)
        #expect(try await packets.waitForPackets(2) == [Vectors.deviceInfo, Vectors.longNotification])
        try await transport.send(Vectors.longCommand)
        try await transport.send(Vectors.dataPacket)
        let all = try await packets.waitForPackets(4)
        #expect(all[2] == [0x41, 0x03, 0x00, 0xFF] + Array(Vectors.longCommand[4...]))
        #expect(all[3] == [0x02, 0x00] + Array(Vectors.dataPacket[2...]))
        #expect(board.raw == Vectors.getDeviceInfo + Vectors.longCommand + Vectors.dataPacket)
        await transport.close()
        #expect(try await packets.waitForEnd() == nil)
    }

    @Test func addsTheNXPHostInterfaceHeaderForTheSR150() async throws {
        let board = try SerialPtyBoard(nxpFraming: true, responder: Vectors.responder)
        let transport = SerialTransport(path: board.path, baud: 3_000_000, framing: .nxpHostInterface)
        let packets = PacketCollector(try await transport.open())
        try await transport.send(Vectors.getDeviceInfo)
        try await transport.send(Vectors.reset)
        #expect(try await packets.waitForPackets(4) == [Vectors.deviceInfo, Vectors.longNotification, Vectors.resetOK, Vectors.ready])
        #expect(board.raw == [0x01, 0x00, 0x04] + Vectors.getDeviceInfo + [0x01, 0x00, 0x05] + Vectors.reset)
        await transport.close()
    }

    @Test func aHangUpFinishesTheStreamWithDisconnected() async throws {
        let board = try SerialPtyBoard(responder: Vectors.responder)
        let transport = SerialTransport(path: board.path)
        let packets = PacketCollector(try await transport.open())
        try await transport.send(Vectors.getDeviceInfo)
        _ = try await packets.waitForPackets(1)
        board.hangUp()
        let error = try #require(try await packets.waitForEnd() as? UWBDeviceError)
        #expect(error.code == .disconnected)
        #expect(error.description.contains("the tty hung up"))
        await transport.close()
    }

    @Test func aSecondUserIsToldTheTTYIsBusy() async throws {
        let board = try SerialPtyBoard(responder: Vectors.responder)
        let first = SerialTransport(path: board.path)
        _ = try await first.open()
        let second = SerialTransport(path: board.path)
        do {
            _ = try await second.open()
            Issue.record("a second process opened a tty that is in use")
        } catch let error as UWBDeviceError {
            #expect(error.code == .busy)
            #expect(error.description.contains("ModemManager"))
        }
        await first.close()
    }

    @Test func aMissingTTYIsNotFoundAndWaitingForItTimesOut() async throws {
        let transport = SerialTransport(path: "/dev/ttyACM-nearby-missing")
        do {
            _ = try await transport.open()
            Issue.record("opened a tty that does not exist")
        } catch let error as UWBDeviceError {
            #expect(error.code == .notFound)
            #expect(error.description.contains("Serial ports present:"))
        }
        do {
            try await transport.waitUntilPresent(timeout: .milliseconds(300))
            Issue.record("a missing tty was reported present")
        } catch let error as UWBDeviceError {
            #expect(error.code == .timeout)
            #expect(error.description.contains("did not appear within"))
        }
    }

    @Test func aFileThatIsNotATTYIsRefused() async throws {
        let transport = SerialTransport(path: "/dev/null")
        do {
            _ = try await transport.open()
            Issue.record("opened /dev/null as a serial port")
        } catch let error as UWBDeviceError {
            #expect(error.code == .unsupported)
            #expect(error.description.contains("is not a tty"))
        }
    }
}
