import NearbyTestSupport
import Testing
import UWBDevice

@Suite struct TCPTransportTests {
    private func server() throws -> ScriptedUCIServer {
        try ScriptedUCIServer(greeting: [Array(Vectors.ready[0..<2]), Array(Vectors.ready[2...])], responder: Vectors.responder)
    }

    @Test func carriesPacketsByteExactBothWaysWhateverTheSegmentation() async throws {
        let server = try server()
        let transport = TCPTransport(host: "127.0.0.1", port: UInt16(server.port))
        #expect(transport.name == "tcp:127.0.0.1:\(server.port)")
        let packets = PacketCollector(try await transport.open())
        #expect(try await packets.waitForPackets(1) == [Vectors.ready])

        try await transport.send(Vectors.getDeviceInfo)
        #expect(try await packets.waitForPackets(3) == [Vectors.ready, Vectors.deviceInfo, Vectors.longNotification])
        try await transport.send(Vectors.reset)
        try await transport.send(Vectors.longCommand)
        try await transport.send(Vectors.dataPacket)
        let all = try await packets.waitForPackets(7)
        #expect(all[3] == Vectors.resetOK)
        #expect(all[4] == Vectors.ready)
        #expect(all[5] == [0x41, 0x03, 0x00, 0xFF] + Array(Vectors.longCommand[4...]))
        #expect(all[6] == [0x02, 0x00] + Array(Vectors.dataPacket[2...]))
        #expect(try await server.waitForPackets(4) == [Vectors.getDeviceInfo, Vectors.reset, Vectors.longCommand, Vectors.dataPacket])

        await transport.close()
        #expect(try await packets.waitForEnd() == nil)
        await transport.close()  // idempotent
    }

    @Test func rejectsBytesThatAreNotOneWholePacketAndSendsNothing() async throws {
        let server = try server()
        let transport = TCPTransport(host: "127.0.0.1", port: UInt16(server.port))
        let packets = PacketCollector(try await transport.open())
        _ = try await packets.waitForPackets(1)
        for bad: [UInt8] in [[0x20, 0x02], [0x20, 0x00, 0x00, 0x01], Vectors.getDeviceInfo + Vectors.getDeviceInfo] {
            await #expect {
                try await transport.send(bad)
            } throws: { error in
                (error as? UWBDeviceError)?.code == .invalidPacket
            }
        }
        try await transport.send(Vectors.getDeviceInfo)
        #expect(try await server.waitForPackets(1) == [Vectors.getDeviceInfo])
        await transport.close()
    }

    @Test func aServerThatIsNotThereIsReportedWithWhatToStart() async throws {
        let port = try freeTCPPort()
        let transport = TCPTransport(host: "127.0.0.1", port: UInt16(port))
        do {
            _ = try await transport.open()
            Issue.record("connected to a port nobody listens on")
        } catch let error as UWBDeviceError {
            #expect(error.code == .notFound)
            #expect(error.description.contains("nothing listens on 127.0.0.1:\(port)"))
            #expect(error.description.contains("nearby sim uwbs --listen 127.0.0.1:\(port)"))
        }
    }

    @Test func theServerClosingFinishesTheStreamWithDisconnected() async throws {
        let server = try server()
        let transport = TCPTransport(host: "127.0.0.1", port: UInt16(server.port))
        let packets = PacketCollector(try await transport.open())
        _ = try await packets.waitForPackets(1)
        server.dropConnection()
        let error = try await packets.waitForEnd()
        let deviceError = try #require(error as? UWBDeviceError)
        #expect(deviceError.code == .disconnected)
        #expect(deviceError.description.contains("the UCI server closed the connection"))
        await transport.close()
    }

    @Test func sendingWhenClosedSaysSoAndReopeningStartsANewConnection() async throws {
        let server = try server()
        let transport = TCPTransport(host: "127.0.0.1", port: UInt16(server.port))
        await #expect {
            try await transport.send(Vectors.getDeviceInfo)
        } throws: { error in
            (error as? UWBDeviceError)?.code == .notOpen
        }
        let first = PacketCollector(try await transport.open())
        _ = try await first.waitForPackets(1)
        await #expect {
            _ = try await transport.open()
        } throws: { error in
            (error as? UWBDeviceError)?.code == .alreadyOpen
        }
        await transport.close()
        #expect(try await first.waitForEnd() == nil)
        try await transport.waitUntilPresent(timeout: .seconds(1))
        let second = PacketCollector(try await transport.open())
        #expect(try await second.waitForPackets(1) == [Vectors.ready])
        try await server.waitForConnections(2)
        await transport.close()
    }
}
