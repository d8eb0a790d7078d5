import BlueZ
import Foundation
import NearbyTestSupport
import Synchronization
import Testing

/// The sd-bus connection on a private dbus-daemon: calls with every type, error replies,
/// signals, exported objects answering later, file descriptors both ways, a closed bus.
@Suite("D-Bus connection (sd-bus on a private bus)", .serialized)
struct DBusConnectionTests {
    static let values: [DBusValue] = [
        .byte(7), .boolean(true), .int16(-2), .uint16(65535), .int32(-70000), .uint32(4_000_000_000), .int64(-1 << 40),
        .uint64(1 << 63), .double(2.5), .string("grüß"), .objectPath("/org/nearby/x"), .signature("a{sv}"),
        .bytes([0, 1, 2, 255]), .array(element: "s", [.string("a"), .string("b")]), .array(element: "s", []),
        .dictionary(key: "q", value: "v", [DBusDictionaryEntry(.uint16(0x004C), .variant(.bytes([0x0A, 0x0B])))]),
        .structure([.string("s"), .uint32(3)]), .variant(.variant(.int32(5))),
        .properties(["UUID": .string("6e400001-b5a3-f393-e0a9-e50e24dcca9e"), "Flags": .array(element: "s", [.string("notify")])]),
    ]

    @Test("a call carries every D-Bus type there and back; an exported object answers later from another thread")
    func roundTrip() async throws {
        let bus = try await PrivateDBus()
        defer { bus.stop() }
        let server = try await DBusConnection.open(.address(bus.address))
        let client = try await DBusConnection.open(.address(bus.address))
        defer {
            server.close()
            client.close()
        }
        #expect(server.uniqueName.hasPrefix(":1.") && client.uniqueName != server.uniqueName)
        try await server.export("/org/nearby/test") { call in
            let arguments = call.info.arguments
            if call.info.member == "Fail" {
                call.fail("org.nearby.Error.Test", "as asked")
                return
            }
            // Answer from another task, later.
            Task {
                try? await Task.sleep(for: .milliseconds(20))
                call.reply(arguments + [.string(call.info.path), .string(call.info.sender)])
            }
        }
        let reply = try await client.call(server.uniqueName, "/org/nearby/test/child", "org.nearby.Test", "Echo", Self.values)
        #expect(Array(reply.dropLast(2)) == Self.values)
        #expect(reply.dropLast().last?.string == "/org/nearby/test/child", "a fallback serves paths below its prefix")
        #expect(reply.last?.string == client.uniqueName)
        do {
            _ = try await client.call(server.uniqueName, "/org/nearby/test", "org.nearby.Test", "Fail")
            Issue.record("no error")
        } catch {
            #expect(error.name == "org.nearby.Error.Test" && error.message == "as asked")
        }
        do {
            _ = try await client.call("org.bluez", "/", "org.freedesktop.DBus.ObjectManager", "GetManagedObjects")
            Issue.record("no error")
        } catch {
            #expect(error.name == DBusError.serviceUnknown, "\(error)")
        }
    }

    @Test("signals reach subscribers by match rule; file descriptors pass both ways and are owned by the receiver")
    func signalsAndDescriptors() async throws {
        let bus = try await PrivateDBus()
        defer { bus.stop() }
        let server = try await DBusConnection.open(.address(bus.address))
        let client = try await DBusConnection.open(.address(bus.address))
        defer {
            server.close()
            client.close()
        }
        let received = Mutex<[DBusMessageInfo]>([])
        try await client.subscribe("type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged'") { info in
            received.withLock { $0.append(info) }
        }
        server.emit(path: "/org/nearby/c", interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged",
                    [.string("org.bluez.GattCharacteristic1"), .properties(["Value": .bytes([1, 2, 3])]), .array(element: "s", [])])
        server.emit(path: "/org/nearby/c", interface: "org.nearby.Other", member: "Ignored", [])
        for _ in 0..<200 where received.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(10)) }
        let signal = try #require(received.withLock { $0.first })
        #expect(signal.path == "/org/nearby/c" && signal.member == "PropertiesChanged" && signal.sender == server.uniqueName)
        #expect(signal.arguments.dropFirst().first?.stringKeyed?["Value"]?.byteArray == [1, 2, 3])
        #expect(received.withLock { $0.count } == 1, "the other signal does not match")

        // AcquireNotify's shape: the reply carries one end of a socket pair.
        try await server.export("/org/nearby/fd") { call in
            var fds: [Int32] = [-1, -1]
            guard socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0, &fds) == 0 else { return call.fail("org.nearby.Error", "socketpair") }
            let mine = fds[0]
            call.reply([.unixFD(fds[1]), .uint16(247)], thenClose: [fds[1]])
            Task.detached {
                var buffer = [UInt8](repeating: 0, count: 64)
                let count = recv(mine, &buffer, 64, 0)
                _ = send(mine, Array(buffer[0..<max(0, count)].reversed()), max(0, count), 0)
                close(mine)
            }
        }
        let reply = try await client.call(server.uniqueName, "/org/nearby/fd", "org.nearby.Test", "Acquire")
        guard case .unixFD(let fd)? = reply.first else {
            Issue.record("no descriptor: \(reply)")
            return
        }
        defer { close(fd) }
        #expect(reply.last?.integer == 247)
        let three: [UInt8] = [1, 2, 3]
        #expect(send(fd, three, 3, 0) == 3)
        var back = [UInt8](repeating: 0, count: 16)
        let count = recv(fd, &back, 16, 0)
        #expect(Array(back[0..<max(0, count)]) == [3, 2, 1], "one packet each way through the passed descriptor")
    }

    @Test("no bus at the address is a typed error; a closed connection fails calls at once")
    func failures() async throws {
        do {
            _ = try await DBusConnection.open(.address("unix:path=/tmp/nearby-no-such-bus-\(UUID().uuidString)"))
            Issue.record("connected to nothing")
        } catch {
            #expect(error.errno == ENOENT || error.errno == ECONNREFUSED, "\(error)")
        }
        let bus = try await PrivateDBus()
        let client = try await DBusConnection.open(.address(bus.address))
        bus.stop()
        for _ in 0..<200 where !client.isClosed { try await Task.sleep(for: .milliseconds(10)) }
        #expect(client.isClosed, "the bus went away")
        do {
            _ = try await client.call("org.bluez", "/", "org.freedesktop.DBus.ObjectManager", "GetManagedObjects")
            Issue.record("no error")
        } catch {
            #expect(error.name == DBusError.closed)
        }
    }
}
