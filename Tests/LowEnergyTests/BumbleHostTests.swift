import LowEnergy
import NearbyTestSupport
import Testing

@Suite("BLE host against Bumble", .serialized)
struct BumbleHostTests {
    @Test("smoke")
    func smoke() async throws {
        let peer = try await BumblePeer.start()
        defer { peer.stop() }
        let host = try await peer.startHost()
        let info = try #require(await host.controller)
        print(info)
        let scan = try await host.scan()
        var seen: Advertisement?
        for await advertisement in scan {
            seen = advertisement
            break
        }
        print(seen as Any)
        let connection = try await host.connect(to: peer.accessoryAddress, type: .random)
        print(connection.mtu)
        let services = try await connection.gatt.discoverPrimaryServices()
        print(services)
        await host.close()
    }
}
