import Foundation
import NearbyTestSupport
import Testing
@testable import UWBDevice

/// The emulated DWM3001CDK must be as strict as the real one, or host code that passes here
/// fails on the desk: these drive it below the transport (internal libusb handle) and check
/// the behaviours the transport relies on.
@Suite(.serialized) struct USBEmulatorFidelityTests {
    @Test func theKernelDriverHoldsTheKitUntilDetachedAndPartialPacketsAreDropped() async throws {
        if USBEmulatedKit.isInner(#function.prefix { $0 != "(" }.description) {
            let context = try LibUSBContext.get()
            let record = try #require(try context.devices().first { $0.vendorID == 0x1915 })
            let handle = try USBDeviceHandle(context: context, record: record, device: "usb:1915:520f")
            defer { handle.close() }
            // cdc_acm is bound: claiming fails until it is detached.
            #expect(try handle.kernelDriverActive(on: 1))
            do {
                try handle.claim(1, kernelDriver: "cdc_acm")
                Issue.record("claimed an interface the kernel driver holds")
            } catch {
                #expect(error.code == .busy)
            }
            try handle.detachKernelDriver(from: 0, driverName: "cdc_acm")
            try handle.detachKernelDriver(from: 1, driverName: "cdc_acm")
            #expect(try !handle.kernelDriverActive(on: 1))
            try handle.claim(0, kernelDriver: "cdc_acm")
            try handle.claim(1, kernelDriver: "cdc_acm")
            try await handle.control(requestType: 0x21, request: 0x22, value: 1, index: 0, timeout: .seconds(1), operation: "raise DTR")
            // Half a packet, a pause longer than the firmware's 100 ms, then a whole packet.
            let half = try await handle.bulkOut(endpoint: 0x01, data: [0x20, 0x02], timeout: .seconds(1))
            #expect(half.outcome == .completed)
            try await Task.sleep(for: .milliseconds(250))
            let whole = try await handle.bulkOut(endpoint: 0x01, data: [0x20, 0x00, 0x00, 0x01, 0x00], timeout: .seconds(1))
            #expect(whole.outcome == .completed)
            // An unknown class request stalls, as on the real device.
            do {
                try await handle.control(requestType: 0x21, request: 0x7F, value: 0, index: 0, timeout: .seconds(1), operation: "send a bogus request")
                Issue.record("the kit accepted an unknown class request")
            } catch {
                #expect((error as? UWBDeviceError)?.code == .unsupported)
            }
            try await Task.sleep(for: .milliseconds(200))
            handle.release(0)
            handle.release(1)
            return
        }
        let server = try ScriptedUCIServer { _ in [] }
        let run = try await USBEmulatedKit.runInner(
            "theKernelDriverHoldsTheKitUntilDetachedAndPartialPacketsAreDropped", kit: .dwm3001cdk, server: server,
            suite: "USBEmulatorFidelityTests")
        #expect(run.events.contains("claim interface 1 refused: bound to cdc_acm"), "\(run.transcript)")
        #expect(run.events.contains("dropped partial packet 20 02 (100 ms gap)"), "\(run.transcript)")
        #expect(run.events.contains("stall: control 21 7f value 0000 index 0000"), "\(run.transcript)")
        // Only the whole packet reached the UWBS.
        #expect(server.received == [[0x20, 0x00, 0x00, 0x01, 0x00]])
    }
}
