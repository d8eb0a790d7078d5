import Simulation
import Testing
import UCI

/// Random and mutated input never traps the device, every command gets exactly one response
/// with its GID/OID, and everything the device sends is a well-formed packet.
@Suite struct UWBSFuzzTests {
    /// Commands a host really sends, to mutate.
    private static let seeds: [[UInt8]] = {
        var packets = [
            "20 00 00 01 00", "20 02 00 00", "20 03 00 00", "20 04 00 03 01 01 00", "20 05 00 00", "20 08 00 00",
            "21 00 00 05 2a 00 00 00 00", "21 01 00 04 01 00 01 00", "21 04 00 05 01 00 01 00 00", "21 05 00 00",
            "21 06 00 04 01 00 01 00", "22 00 00 04 01 00 01 00", "22 01 00 04 01 00 01 00", "22 03 00 04 01 00 01 00",
            "21 07 00 0c 01 00 01 00 00 01 03 00 00 00 00 00", "2c 01 00 02 55 53",
        ].map(bytes)
        if let configure = try? UCICommand.setAppConfig(
            session: 0x0001_0001, configs: Configs.session(controller: true, mac: 1, peer: 2, extra: [.macAddressMode(.short)])
        ).packets().first?.bytes {
            packets.append(configure)
        }
        return packets
    }()

    @Test func everyCommandGetsExactlyOneResponse() async throws {
        var random = SimulationRandom(seed: 2025)
        var uwbs = VirtualUWBS(configuration: VirtualUWBSConfiguration(maximumPacketPayload: 64))
        _ = uwbs.powerOn()
        _ = uwbs.receive(bytes("20 00 00 01 00"), at: 0)
        for iteration in 0..<20_000 {
            if iteration % 200 == 0 { await Task.yield() }  // a long synchronous loop would hold one of the 2-core test pool's threads
            var packet = Self.seeds[Int(random.next() % UInt64(Self.seeds.count))]
            switch random.next() % 4 {
            case 0:  // flip bytes of the payload
                for _ in 0..<(1 + random.next() % 3) where packet.count > 4 {
                    packet[4 + Int(random.next() % UInt64(packet.count - 4))] = UInt8(truncatingIfNeeded: random.next())
                }
            case 1:  // random GID/OID
                packet[0] = 0x20 | UInt8(random.next() % 16)
                packet[1] = UInt8(random.next() % 64)
            case 2:  // truncate or extend the payload (keeping the header consistent)
                let length = Int(random.next() % 40)
                packet = Array(packet.prefix(4)) + (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                packet[3] = UInt8(length)
            default: break
            }
            let reaction = uwbs.receive(packet, at: Double(iteration) * 0.01)
            var reassembler = UCIReassembler()
            var responses: [UCIRawMessage] = []
            for out in reaction.packets {
                // Its wire bytes are exactly one packet, and they say what the typed packet says.
                let decoded = try UCIPacket(bytes: out.bytes)
                #expect(decoded == out)
                #expect(decoded.payload.count <= 64)
                if let message = try reassembler.append(decoded), message.messageType == .response { responses.append(message) }
            }
            #expect(!reassembler.isReassembling)
            #expect(responses.count == 1, "\(hex(packet)) -> \(reaction.packets.map { hex($0.bytes) })")
            #expect(responses.first?.opcode == UCIOpcode(gid: UCIGroupID(rawValue: packet[0] & 0x0F), oid: packet[1] & 0x3F))
            if uwbs.deviceState == .error { _ = uwbs.receive(bytes("20 00 00 01 00"), at: 0) }
        }
    }

    @Test func arbitraryBytesNeverTrap() async throws {
        var random = SimulationRandom(seed: 7)
        var uwbs = VirtualUWBS(configuration: VirtualUWBSConfiguration(requiresReset: false))
        _ = uwbs.powerOn()
        for iteration in 0..<20_000 {
            if iteration % 200 == 0 { await Task.yield() }  // a long synchronous loop would hold one of the 2-core test pool's threads
            let length = Int(random.next() % 48)
            var packet = [UInt8](repeating: 0, count: 4 + length)
            for index in packet.indices { packet[index] = UInt8(truncatingIfNeeded: random.next()) }
            if packet[0] >> 5 == 0 {
                packet[2] = UInt8(length)
                packet[3] = 0
            } else {
                packet[1] &= 0x7F
                packet[3] = UInt8(length)
            }
            let reaction = uwbs.receive(packet, at: Double(iteration))
            for out in reaction.packets { #expect(try UCIPacket(bytes: out.bytes) == out) }
        }
    }
}
