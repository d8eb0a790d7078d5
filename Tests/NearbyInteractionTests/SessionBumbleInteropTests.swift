import Foundation
import LowEnergy
import NIProtocol
import NearbyInteraction
import NearbyTestSupport
import Ranging
import Testing
import UCI

/// The NI flow over BLE (Bumble) against accessories that act like the public firmware our
/// behaviour must suit (Tests/Peers/blepeer/ni_accessory.py): Qorvo's (0x02 for any accepted
/// 0x0B, a fresh 0x0A needed after every stop, a 64-byte UWB config buffer) and NXP's Android
/// demo (the 14-byte phone configuration checked as NXP's code does, MAC bytes copied into UCI).
@Suite(.serialized) struct SessionBumbleInteropTests {
    private typealias Rig = SessionBumbleEndToEndTests.Rig

    /// A Qorvo-like accessory with its whole 64-byte UWB config buffer and trailing bytes: the
    /// session ranges; when the accessory stops (0x03) the session starts over (0x0C, its 0x03,
    /// 0x0A, a fresh 0x01, a new 0x0B) and ranges again. A cached 0x0B would get 0x02 from this
    /// accessory but never range again.
    @Test func aQorvoLikeAccessoryIsStartedOverAfterItStops() async throws {
        let rig = try await Rig.start(seed: 3, environment: ["NEARBY_NI_UWB_CONFIG_LENGTH": "64", "NEARBY_NI_TRAILING": "3"])
        defer { rig.peer.terminate() }
        let (peer, channel, client) = (rig.peer, rig.channel, rig.client)
        let manager = NearbySessionManager(client: client, configuration: fastSessionConfiguration(lostAfter: 3), logger: sessionTestLogger)
        let recorder = EventRecorder(manager.events)
        let id = NIAccessoryPeer.address
        try await manager.add(AccessoryIdentity(id: id, displayName: "qorvo-like"), channel: channel)
        try await recorder.waitForUpdates(3, of: id)
        try await peer.waitForOutput("NI-ACD length=83")
        let first = try #require(recorder.configurations(of: id).first?.0)
        guard case .apple(let acd) = first.accessory, case .apple(let shareable) = first.shared else {
            Issue.record("not Apple")
            return
        }
        #expect(acd.uwbConfiguration.byteCount == 64 && acd.trailingBytes == [0xF0, 0xF1, 0xF2])
        #expect(shareable.byteCount == 30, "answered with the v1.1 layout Qorvo accepts")

        try await rig.control([0x20, 0x03])
        try await peer.waitForOutput("NI-STOPPED-BY-ACCESSORY")
        try await recorder.waitFor("a second configuration", timeout: .seconds(60)) { _ in recorder.configurations(of: id).count == 2 }
        let before = recorder.updates(of: id).count
        try await recorder.waitForUpdates(before + 3, of: id)
        let second = try #require(recorder.configurations(of: id).last?.0)
        try await peer.waitForOutput(String(format: "NI-START session=0x%08X", second.sessionID))
        #expect(!peer.stdout.contains("NI-STALE-START"), "never a 0x0B without a fresh 0x0A")
        let retries = recorder.retries(of: id)
        #expect(retries.map(\.reason) == [.accessoryStopped] && retries.map(\.action) == [.startOver], "\(retries)")
        // The order on the data channel after the stop: 0x0C, then 0x0A, then 0x0B.
        let writes = peer.stdout.split(separator: "\n").filter { $0.hasPrefix("RECEIVED channel=nus") }.compactMap { line in
            line.range(of: "data=").map { String(line[$0.upperBound...].prefix(2)) }
        }
        #expect(writes == ["0a", "0b", "0c", "0a", "0b"], "\(writes)")

        await manager.stop()
        try await recorder.waitForEnd()
        await rig.shutdown()
    }

    /// An NXP-like Android accessory (0xA5): the 14-byte phone configuration passes NXP's checks;
    /// both UWBSs carry the same two MAC bytes (the accessory copies them into UCI unchanged, and
    /// so does our kit), so they range; NXP's table for config ID 1 (10 slots, 240 ms) is used;
    /// after the accessory stops, the session starts over with 0xA5.
    @Test func anNXPLikeAndroidAccessoryRangesWithTheMACsInUCIOrder() async throws {
        let rig = try await Rig.start(seed: 4, environment: ["NEARBY_NI_MAC": "1234"])
        defer { rig.peer.terminate() }
        let (peer, channel, client) = (rig.peer, rig.channel, rig.client)
        var configuration = fastSessionConfiguration(lostAfter: 3)
        configuration.dialect = .android
        let manager = NearbySessionManager(client: client, configuration: configuration, logger: sessionTestLogger)
        let recorder = EventRecorder(manager.events)
        let id = NIAccessoryPeer.address
        try await manager.add(AccessoryIdentity(id: id, displayName: "nxp-like"), channel: channel)
        let updates = try await recorder.waitForUpdates(3, of: id)
        #expect(abs((updates.last?.distance ?? 0) - 2.0) < 0.01)
        try await peer.waitForOutput("NI-ANDROID-CONFIG mac=1234")
        let plan = try #require(recorder.configurations(of: id).first?.0)
        guard case .android(let phone) = plan.shared else { Issue.record("not Android"); return }
        #expect(plan.accessoryAddress == 0x3412, "bytes 12 34 as UCI numbers them")
        let host = plan.hostParameters
        // Our kit's SET_APP_CONFIG: DST_MAC_ADDRESS carries the accessory's bytes as it sent them,
        // DEVICE_MAC_ADDRESS the bytes our 0x0B carries (which the accessory uses as its DST).
        let tlvs = try host.appConfigs(for: .v2_0)
        #expect(try tlvs.first { $0.id == .destinationMACAddresses }?.encodedValue() == [0x12, 0x34])
        let ours = try #require(try tlvs.first { $0.id == .deviceMACAddress }?.encodedValue())
        #expect(Array(phone.encoded().suffix(2)) == ours)
        try await peer.waitForOutput("NI-ANDROID-START session=")
        let start = try #require(peer.stdout.split(separator: "\n").first { $0.hasPrefix("NI-ANDROID-START") })
        #expect(start.contains("config=1 device_mac=1234 dst_mac=\(ours.map { String(format: "%02x", $0) }.joined())"), "\(start)")
        #expect(host.slotsPerRangingRound == 10 && host.rangingInterval == 240, "NXP's table for config ID 1")
        #expect(peer.stdout.contains("RECEIVED channel=nus length=15 data=0b"), "exactly 14 bytes after the ID")

        try await rig.control([0x20, 0x03])
        try await recorder.waitFor("a second configuration", timeout: .seconds(60)) { _ in recorder.configurations(of: id).count == 2 }
        let before = recorder.updates(of: id).count
        try await recorder.waitForUpdates(before + 3, of: id)
        let initializes = peer.stdout.split(separator: "\n").filter { $0.hasPrefix("RECEIVED channel=nus length=1 data=a5") }
        #expect(initializes.count == 2, "started over with 0xA5")
        #expect(peer.stdout.contains("RECEIVED channel=nus length=1 data=0c"))

        await manager.stop()
        try await recorder.waitForEnd()
        await rig.shutdown()
    }
}
