import Foundation
import NearbyTestSupport
import Testing
import UWBDevice

@Suite struct DevKitTests {
    @Test func catalogueDescribesTheDWM3001CDK() throws {
        let kit = try #require(DevKit.matching(vendorID: 0x1915, productID: 0x520F))
        #expect(kit == .dwm3001cdk)
        #expect(kit.name == "Qorvo DWM3001CDK")
        #expect(kit.kind == .cdcACM)
        #expect(kit.communicationInterface == 0)
        #expect(kit.dataInterface == 1)
        #expect(kit.bulkOut == 0x01)
        #expect(kit.bulkIn == 0x81)
        #expect(kit.maxPacketSize == 64)
        #expect(kit.framing == .rawUCI)
        #expect(kit.kernelDriver == "cdc_acm")
        #expect(kit.usbID == "1915:520f")
        #expect(kit.description == "Qorvo DWM3001CDK (1915:520f, CDC-ACM)")
    }

    @Test func catalogueDescribesTheSR150EVK() throws {
        let kit = try #require(DevKit.matching(vendorID: 0x0403, productID: 0x6015))
        #expect(kit == .sr150evk)
        #expect(kit.kind == .ft230x)
        #expect(kit.communicationInterface == nil)
        #expect(kit.dataInterface == 0)
        #expect(kit.defaultBaud == 3_000_000)
        #expect(kit.framing == .nxpHostInterface)
        #expect(kit.kernelDriver == "ftdi_sio")
        #expect(kit.usbID == "0403:6015")
    }

    @Test func unknownIDsAreNotInTheCatalogue() {
        #expect(DevKit.matching(vendorID: 0x1915, productID: 0x0001) == nil)
        #expect(DevKit.matching(vendorID: 0x0403, productID: 0x6001) == nil)
        #expect(DevKit.all.count == 2)
    }

    @Test func boardFramingPrefixesTypeAndBigEndianLength() {
        #expect(BoardFraming.frame([0x20, 0x02, 0x00, 0x00]) == [0x01, 0x00, 0x04, 0x20, 0x02, 0x00, 0x00])
        let long = [UInt8](repeating: 0xAB, count: 300)
        let framed = BoardFraming.frame(long)
        #expect(Array(framed.prefix(3)) == [0x01, 0x01, 0x2C])
        #expect(Array(framed.dropFirst(3)) == long)
    }

    @Test(arguments: [
        (3_000_000, UInt16(0x0000), UInt16(0x0000), 3_000_000),
        (2_000_000, 0x0001, 0x0000, 2_000_000),
        (1_000_000, 0x0003, 0x0000, 1_000_000),
        (921_600, 0x8003, 0x0000, 923_077),   // 3.25: fraction 0.25 -> code 2 in bits 14-15
        (115_200, 0x001A, 0x0000, 115_385),
        (9_600, 0x4138, 0x0000, 9_600),       // 312.5: fraction 0.5 -> code 1
        (57_600, 0xC034, 0x0000, 57_554),     // 52.125: fraction 0.125 -> code 3
        (460_800, 0x4006, 0x0000, 461_538),   // 6.5: fraction 0.5 -> code 1
        (888_889, 0x0003, 0x0001, 888_889),   // 3.375: fraction 0.375 -> code 4, bit 16 in wIndex
        (19_200, 0x809C, 0x0000, 19_200),     // 156.25
    ])
    func ftdiBaudDivisorEncoding(baud: Int, value: UInt16, index: UInt16, actual: Int) throws {
        let divisor = try #require(FTDI.baudDivisor(for: baud))
        #expect(divisor.value == value)
        #expect(divisor.index == index)
        #expect(divisor.actualBaud == actual)
    }

    @Test func ftdiRejectsRatesItCannotMake() {
        #expect(FTDI.baudDivisor(for: 100) == nil)
        #expect(FTDI.baudDivisor(for: 4_000_000) == nil)
        #expect(FTDI.baudDivisor(for: 2_500_000) == nil)  // 1.2 is not a valid divisor: 2 M is 20 % off
    }

    @Test func ftdiStatusBytesAreStrippedFromEveryPacket() {
        // Status-only packet: no data.
        #expect(FTDI.payload(of: [0x01, 0x60]) == [])
        // One short packet.
        #expect(FTDI.payload(of: [0x01, 0x60, 0x40, 0x02]) == [0x40, 0x02])
        // A full 64-byte packet (62 data bytes) followed by a short one: both lose 2 bytes.
        let first = (0..<62).map { UInt8($0) }
        let second: [UInt8] = [0xAA, 0xBB, 0xCC]
        let transfer = [0x01, 0x60] + first + [0x31, 0x60] + second
        #expect(FTDI.payload(of: transfer) == first + second)
        // Max packet size other than 64.
        #expect(FTDI.payload(of: [0x01, 0x60, 1, 2, 0x01, 0x60, 3], maxPacketSize: 4) == [1, 2, 3])
    }
}

@Suite struct DevKitUdevRuleTests {
    @Test func theShippedUdevRuleCoversEveryKitOnUSBAndAsATTY() throws {
        let rules = try String(contentsOf: PackagePaths.file(UWBDeviceError.udevRulePath), encoding: .utf8)
        let lines = rules.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }
        for kit in DevKit.all {
            let vendor = String(kit.usbID.prefix(4))
            let product = String(kit.usbID.suffix(4))
            let usb = lines.filter {
                $0.contains("SUBSYSTEM==\"usb\"") && $0.contains("ATTR{idVendor}==\"\(vendor)\"") && $0.contains("ATTR{idProduct}==\"\(product)\"")
            }
            let tty = lines.filter {
                $0.contains("SUBSYSTEM==\"tty\"") && $0.contains("ATTRS{idVendor}==\"\(vendor)\"") && $0.contains("ATTRS{idProduct}==\"\(product)\"")
            }
            #expect(usb.count == 1, "no USB rule for \(kit.name)")
            #expect(tty.count == 1, "no tty rule for \(kit.name)")
            for line in usb + tty {
                #expect(line.contains("MODE=\"0660\"") && line.contains("GROUP=\"plugdev\""))
                #expect(line.contains("ENV{ID_MM_DEVICE_IGNORE}=\"1\""))
            }
        }
    }
}
