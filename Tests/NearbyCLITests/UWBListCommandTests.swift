import Foundation
import NearbyTestSupport
import Testing

/// `nearby uwb list` against dev kits emulated by umockdev (the real libusb path).
@Suite(.serialized) struct UWBListCommandTests {
    @Test func listsTheEmulatedDWM3001CDK() async throws {
        let run = try await UMockdevEmulator.run(kit: .dwm3001cdk, uciPort: nil, command: [PackagePaths.nearby.path, "uwb", "list"])
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "UWB dev kits on USB:")
        let kit = try #require(lines.first { $0.hasPrefix("  usb:1915:520f@1.2") }, "\(run.stdout)")
        #expect(kit.contains("Qorvo DWM3001CDK (CDC-ACM)"))
        #expect(kit.contains("\"Nordic Semiconductor nRF52 USB Product\""))
        #expect(kit.contains("serial E4C1F0A2B3D5"))
        #expect(kit.contains("port 1-1"))
        #expect(kit.contains("kernel driver: cdc_acm (nearby detaches it)"))
        #expect(!kit.contains("NO ACCESS"))
        #expect(lines.contains("Serial ports:"))
        // Listing must not take the kit away from its kernel driver.
        #expect(!UMockdevEmulator.events(in: run.stderr).contains { $0.hasPrefix("detach") })
    }

    @Test func listsTheEmulatedSR150EVKAndWithAllTheRootHub() async throws {
        let run = try await UMockdevEmulator.run(kit: .sr150, uciPort: nil, command: [PackagePaths.nearby.path, "uwb", "list", "--all"])
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "USB devices:")
        let kit = try #require(lines.first { $0.hasPrefix("  usb:0403:6015@1.2") }, "\(run.stdout)")
        #expect(kit.contains("NXP SR150 EVK (FTDI FT230X)"))
        #expect(kit.contains("\"FTDI FT230X Basic UART\""))
        #expect(kit.contains("kernel driver: ftdi_sio"))
        // Unknown devices come after the kits.
        let hub = try #require(lines.firstIndex { $0.hasPrefix("  usb:1d6b:0002@1.1") }, "\(run.stdout)")
        #expect(hub > lines.firstIndex(of: kit)!)
    }
}
