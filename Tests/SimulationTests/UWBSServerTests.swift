import NearbyTestSupport
import Simulation
import Testing
import UCI

/// The TCP server: one connection is one virtual UWBS; raw sockets in the test.
@Suite struct UWBSServerTests {
    private static let reset = bytes("20 00 00 01 00")

    /// Reset, init session 42 (handle 0x00010001), configure, start over a raw socket.
    private func startRanging(_ socket: RawUCISocket, controller: Bool, mac: UInt16, peer: UInt16) async throws {
        #expect(try await socket.next() == bytes("60 01 00 01 01"))
        socket.send(Self.reset)
        #expect(try await socket.next(2) == [bytes("40 00 00 01 00"), bytes("60 01 00 01 01")])
        socket.send(bytes("21 00 00 05 2a 00 00 00 00"))
        #expect(try await socket.next(2) == [bytes("41 00 00 05 00 01 00 01 00"), bytes("61 02 00 06 01 00 01 00 00 00")])
        let configure = try UCICommand.setAppConfig(
            session: 0x0001_0001, configs: Configs.session(controller: controller, mac: mac, peer: peer, interval: 100)
        ).packets()[0].bytes
        // Written in two pieces: TCP does not keep packet boundaries.
        socket.send(Array(configure[0..<7]))
        try await Task.sleep(for: .milliseconds(20))
        socket.send(Array(configure[7...]))
        #expect(try await socket.next(2) == [bytes("41 03 00 02 00 00"), bytes("61 02 00 06 01 00 01 00 03 00")])
        socket.send(bytes("22 00 00 04 01 00 01 00"))
        #expect(
            try await socket.next(3) == [bytes("42 00 00 01 00"), bytes("61 02 00 06 01 00 01 00 02 00"), bytes("60 01 00 01 02")])
    }

    private func nextInfo(_ socket: RawUCISocket) async throws -> UCISessionInfoView {
        try UCISessionInfoView(packet: UCIPacket(bytes: try await socket.next()))
    }

    @Test func twoConnectionsAreTwoDevicesThatRangeWithEachOther() async throws {
        let world = try VirtualUWBSWorld(scenario: .stand, noise: .ideal, clock: .realTime(speed: 1))
        let server = try VirtualUWBSServer(world: world, host: "127.0.0.1", port: 0)
        #expect(server.port != 0)
        #expect(server.address == "127.0.0.1:\(server.port)")
        let a = try RawUCISocket(port: Int(server.port))
        let b = try RawUCISocket(port: Int(server.port))
        try await startRanging(a, controller: true, mac: 0x0001, peer: 0x0002)
        try await startRanging(b, controller: false, mac: 0x0002, peer: 0x0001)
        // Once both are ACTIVE they range: 2 m (the stand scenario, ideal noise), each sees the other.
        var fromA = try await nextInfo(a)
        while fromA.measurements.first?.status != .ok { fromA = try await nextInfo(a) }
        #expect(fromA.measurements.first?.macAddress == .short(0x0002))
        #expect(fromA.measurements.first?.distance == 200)
        #expect(fromA.currentRangingInterval == 100)
        var fromB = try await nextInfo(b)
        while fromB.measurements.first?.status != .ok { fromB = try await nextInfo(b) }
        #expect(fromB.measurements.first?.macAddress == .short(0x0001))
        #expect(fromB.measurements.first?.distance == 200)
        #expect(server.connectedDevices.count == 2)
        #expect(await world.deviceSnapshots.map(\.sceneDevice) == [.host, .accessory(0)])

        // A leaves: B's session keeps running and times out.
        a.close()
        var timeouts = 0
        while timeouts < 3 {
            if try await nextInfo(b).measurements.first?.status == .rangingRXTimeout { timeouts += 1 }
        }
        #expect(await world.deviceSnapshots.count == 1)
        // Stopping the server closes the connection.
        await server.stop()
        while (try? await b.next(timeout: .seconds(10))) != nil {}
        #expect(b.isClosed)
        await world.shutdown()
    }

    @Test func droppingConnectionsClosesThemAndNewOnesAreAccepted() async throws {
        let world = try VirtualUWBSWorld(clock: .manual)
        let server = try VirtualUWBSServer(world: world, port: 0, configuration: VirtualUWBSConfiguration(uciVersion: .v1_1))
        let first = try RawUCISocket(port: Int(server.port))
        #expect(try await first.next() == bytes("60 01 00 01 01"))
        await server.dropConnections()
        await #expect(throws: (any Error).self) { _ = try await first.next(timeout: .seconds(10)) }
        #expect(first.isClosed)
        let second = try RawUCISocket(port: Int(server.port))
        #expect(try await second.next() == bytes("60 01 00 01 01"))
        second.send(Self.reset)
        second.send(bytes("21 00 00 05 2a 00 00 00 00"))
        // UCI 1.1: no handle.
        #expect(try await second.next(4).last == bytes("61 02 00 06 2a 00 00 00 00 00"))
        await server.stop()
        await world.shutdown()
    }

    @Test func anAddressInUseIsReportedWithWhatToDo() async throws {
        let world = try VirtualUWBSWorld(clock: .manual)
        let server = try VirtualUWBSServer(world: world, port: 0)
        let error = #expect(throws: VirtualUWBSError.self) {
            _ = try VirtualUWBSServer(world: world, port: server.port)
        }
        #expect(error?.code == .listenFailed)
        #expect(error?.description == "cannot listen on 127.0.0.1:\(server.port): the address is in use (another nearby sim uwbs, or pica?); choose another port, or 0 to let the system pick")
        let unknown = #expect(throws: VirtualUWBSError.self) {
            _ = try VirtualUWBSServer(world: world, host: "no-such-host.invalid", port: 0)
        }
        #expect(unknown?.description.hasPrefix("cannot listen on no-such-host.invalid:0: cannot resolve \"no-such-host.invalid\"") == true)
        await server.stop()
        await world.shutdown()
    }
}
