import Testing
@testable import UWBDevice

/// libusb return codes -> errors a user can act on (the mapping is unit-tested here; the
/// umockdev tests exercise the real paths).
@Suite struct USBErrorMessageTests {
    private let accessDenied: Int32 = -3  // LIBUSB_ERROR_ACCESS
    private let noDevice: Int32 = -4      // LIBUSB_ERROR_NO_DEVICE
    private let busy: Int32 = -6          // LIBUSB_ERROR_BUSY

    @Test func permissionDeniedNamesTheUdevRuleAndHowToInstallIt() {
        let error = LibUSBStatus.error(accessDenied, device: "usb:1915:520f@1.4", operation: "open the USB device 1.4")
        #expect(error.code == .permissionDenied)
        let text = error.description
        #expect(text.hasPrefix("usb:1915:520f@1.4: cannot open the USB device 1.4: permission denied"))
        #expect(text.contains("LIBUSB_ERROR_ACCESS"))
        #expect(text.contains("packaging/99-nearby-uwb.rules"))
        #expect(text.contains("sudo cp packaging/99-nearby-uwb.rules /etc/udev/rules.d/"))
        #expect(text.contains("udevadm control --reload && sudo udevadm trigger"))
        #expect(text.contains("replug"))
    }

    @Test func busyNamesModemManagerTheSerialConsoleAndTheKernelDriver() {
        let error = LibUSBStatus.error(busy, device: "usb:1915:520f", operation: "claim interface 1", kernelDriver: "cdc_acm")
        #expect(error.code == .busy)
        let text = error.description
        #expect(text.contains("cannot claim interface 1: the device is busy (LIBUSB_ERROR_BUSY)"))
        #expect(text.contains("ModemManager"))
        #expect(text.contains("serial console"))
        #expect(text.contains("cdc_acm"))
    }

    @Test func noDeviceIsADisconnect() {
        let error = LibUSBStatus.error(noDevice, device: "usb:0403:6015", operation: "set 3000000 baud")
        #expect(error.code == .disconnected)
        #expect(error.description.contains("unplugged"))
    }

    @Test func posixPermissionErrorsOnTTYsNameTheRuleToo() {
        let error = UWBDeviceError.posix(13, device: "serial:/dev/ttyACM0", operation: "open /dev/ttyACM0")  // EACCES
        #expect(error.code == .permissionDenied)
        #expect(error.description.contains("packaging/99-nearby-uwb.rules"))
        let busyError = UWBDeviceError.posix(16, device: "serial:/dev/ttyACM0", operation: "open /dev/ttyACM0")  // EBUSY
        #expect(busyError.code == .busy)
        #expect(busyError.description.contains("ModemManager"))
    }

    @Test func packetCheckRejectsAnythingButOneWholePacket() {
        #expect(throws: UWBDeviceError.self) { try UCIPacketCheck.validate([0x20, 0x02], device: "x") }
        do {
            try UCIPacketCheck.validate([0x20, 0x00, 0x00, 0x01], device: "tcp:127.0.0.1:7000")
            Issue.record("a header announcing 1 payload byte with none following was accepted")
        } catch {
            #expect(error.code == .invalidPacket)
            #expect(error.description.contains("announces 1 payload byte(s) but 0 follow"))
        }
        #expect(throws: Never.self) { try UCIPacketCheck.validate([0x20, 0x00, 0x00, 0x01, 0x00], device: "x") }
        // Data packet: 16-bit little-endian length.
        #expect(throws: Never.self) { try UCIPacketCheck.validate([0x01, 0x00, 0x02, 0x00, 0xAA, 0xBB], device: "x") }
    }
}
