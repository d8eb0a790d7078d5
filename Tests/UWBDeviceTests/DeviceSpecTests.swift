import Testing
import UWBDevice

@Suite struct DeviceSpecTests {
    @Test(arguments: [
        ("usb:1915:520f", UWBDeviceSpec.usb(vendorID: 0x1915, productID: 0x520F, bus: nil, address: nil), "usb:1915:520f"),
        ("usb:1915:520F@1.4", .usb(vendorID: 0x1915, productID: 0x520F, bus: 1, address: 4), "usb:1915:520f@1.4"),
        ("usb:0x0403:0x6015@3.127", .usb(vendorID: 0x0403, productID: 0x6015, bus: 3, address: 127), "usb:0403:6015@3.127"),
        ("usb:403:6015", .usb(vendorID: 0x0403, productID: 0x6015, bus: nil, address: nil), "usb:0403:6015"),
        ("serial:/dev/ttyACM0", .serial(path: "/dev/ttyACM0", baud: nil), "serial:/dev/ttyACM0"),
        ("serial:/dev/ttyUSB0@3000000", .serial(path: "/dev/ttyUSB0", baud: 3_000_000), "serial:/dev/ttyUSB0@3000000"),
        ("serial:/dev/serial/by-id/usb-SEGGER@x@115200", .serial(path: "/dev/serial/by-id/usb-SEGGER@x", baud: 115_200),
         "serial:/dev/serial/by-id/usb-SEGGER@x@115200"),
        ("tcp:127.0.0.1:7000", .tcp(host: "127.0.0.1", port: 7000), "tcp:127.0.0.1:7000"),
        ("tcp:localhost:1", .tcp(host: "localhost", port: 1), "tcp:localhost:1"),
        ("tcp:[::1]:7000", .tcp(host: "::1", port: 7000), "tcp:[::1]:7000"),
        (" tcp:localhost:7000 ", .tcp(host: "localhost", port: 7000), "tcp:localhost:7000"),
    ])
    func parsesValidForms(text: String, expected: UWBDeviceSpec, canonical: String) throws {
        let spec = try UWBDeviceSpec(parsing: text)
        #expect(spec == expected)
        #expect(spec.description == canonical)
        #expect(try UWBDeviceSpec(parsing: spec.description) == spec)
    }

    @Test(arguments: [
        ("", "it is empty"),
        ("ttyACM0", "it has no scheme"),
        ("bluetooth:00:11", "unknown scheme \"bluetooth\""),
        ("usb:1915", "usb:VID:PID with hexadecimal IDs"),
        ("usb:1915:520f:1", "usb:VID:PID with hexadecimal IDs"),
        ("usb:xyz:520f", "vendor ID \"xyz\" is not a hexadecimal number"),
        ("usb:12345:520f", "vendor ID \"12345\" is not a hexadecimal number"),
        ("usb:1915:", "product ID \"\" is not a hexadecimal number"),
        ("usb:1915:520f@1", "BUS.ADDR in decimal"),
        ("usb:1915:520f@0.4", "bus \"0\" is not a number 1-255"),
        ("usb:1915:520f@1.200", "device address \"200\" is not a number 1-127"),
        ("usb:1915:520f@a.b", "bus \"a\" is not a number"),
        ("serial:ttyACM0", "absolute path"),
        ("serial:/dev/ttyACM0@fast", "baud rate \"fast\" is not a positive number"),
        ("serial:/dev/ttyACM0@-5", "baud rate \"-5\" is not a positive number"),
        ("serial:/dev/ttyACM0@123", "baud rate 123 is not supported"),
        ("tcp:7000", "tcp:HOST:PORT"),
        ("tcp::7000", "the host is missing"),
        ("tcp:127.0.0.1:0", "port \"0\" is not a number 1-65535"),
        ("tcp:127.0.0.1:70000", "port \"70000\" is not a number 1-65535"),
        ("tcp:::1:7000", "IPv6 address in brackets"),
        ("tcp:[::1]7000", "tcp:[ADDRESS]:PORT"),
    ])
    func rejectsInvalidFormsWithAnActionableMessage(text: String, fragment: String) {
        #expect {
            _ = try UWBDeviceSpec(parsing: text)
        } throws: { error in
            guard let error = error as? UWBDeviceError else { return false }
            let message = error.description
            return error.code == .invalidSpec
                && message.contains("invalid device \"\(text)\"")
                && message.contains(fragment)
                && message.contains(UWBDeviceSpec.forms)
                && message.contains("nearby uwb list")
        }
    }

    @Test func theSimulatorIsNotAFormOfThisModuleButHigherLayersCanNameTheirForms() {
        #expect(UWBDeviceSpec.forms == "usb:VID:PID[@BUS.ADDR], serial:PATH[@BAUD] or tcp:HOST:PORT")
        #expect(UWBDeviceSpec.forms(including: ["sim"]) == "usb:VID:PID[@BUS.ADDR], serial:PATH[@BAUD], tcp:HOST:PORT or sim")
        #expect {
            _ = try UWBDeviceSpec(parsing: "sim")
        } throws: { error in
            guard let error = error as? UWBDeviceError else { return false }
            return error.code == .invalidSpec && error.description.contains("invalid device \"sim\": it has no scheme (usb:, serial: or tcp:)")
                && error.description.contains("Valid forms: \(UWBDeviceSpec.forms);")
        }
        // A higher layer that accepts more forms gets them named in every error.
        #expect {
            _ = try UWBDeviceSpec(parsing: "ttyACM0", alsoAccepting: ["sim"])
        } throws: { error in
            guard let error = error as? UWBDeviceError else { return false }
            return error.description.contains("it has no scheme (usb:, serial:, tcp: or sim)")
                && error.description.contains("Valid forms: usb:VID:PID[@BUS.ADDR], serial:PATH[@BAUD], tcp:HOST:PORT or sim;")
        }
    }

    @Test func factoryMakesTheTransportForEachSpec() throws {
        let usb = try UWBDeviceSpec(parsing: "usb:1915:520f@1.4").makeTransport()
        #expect(usb is USBTransport)
        #expect(usb.name == "usb:1915:520f@1.4")
        let serial = try UWBDeviceSpec(parsing: "serial:/dev/ttyACM0@115200").makeTransport()
        #expect(serial is SerialTransport)
        #expect(serial.name == "serial:/dev/ttyACM0@115200")
        let tcp = try UWBDeviceSpec(parsing: "tcp:[::1]:7000").makeTransport()
        #expect(tcp is TCPTransport)
        #expect(tcp.name == "tcp:[::1]:7000")
    }
}
