import BlueZ
import Foundation
import Logging
import LowEnergy
import NearbyTestSupport

/// Quiet unless NEARBY_TEST_LOG is set (then debug on stderr).
let bluezTestLogger: Logger = {
    var logger = Logger(label: "nearby.bluez.test")
    logger.logLevel = ProcessInfo.processInfo.environment["NEARBY_TEST_LOG"] != nil ? .debug : .critical
    return logger
}()

/// A Bumble peer (accessories on controller C1, ...) and the mock bluetoothd driving its C0,
/// on a private bus.
struct BlueZRig {
    let peer: BumblePeerProcess
    let bluez: BlueZMockProcess

    /// The bus the mock bluetoothd is on.
    var bus: DBusConnection.Bus { .address(bluez.bus.address) }

    static func start(peer arguments: [String] = [], bluez options: [String] = [], policy: String = PrivateDBus.openPolicy) async throws -> BlueZRig {
        let peer = try await BumblePeerProcess(arguments)
        do {
            let bluez = try await BlueZMockProcess(hciPort: peer.port, arguments: options, policy: policy)
            return BlueZRig(peer: peer, bluez: bluez)
        } catch {
            peer.stop()
            throw error
        }
    }

    func central(security: SecurityContext = SecurityContext()) async throws(BluetoothError) -> BlueZCentral {
        try await BlueZCentral.open(adapter: nil, bus: bus, security: security, logger: bluezTestLogger)
    }

    func stop() {
        bluez.stop()
        peer.stop()
    }
}

/// Waits (at most `timeout`) until `condition` holds.
func eventually(_ timeout: Duration = .seconds(30), _ condition: () async -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while clock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(50))
    }
    return await condition()
}
