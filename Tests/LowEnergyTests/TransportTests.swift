import Foundation
import Glibc
import LowEnergy
import NearbyTestSupport
import Testing

@Suite("HCI transports: specs and actionable open errors")
struct TransportTests {
    @Test("specs parse into transports")
    func parse() throws {
        #expect(try HCITransportSpec(parsing: "hci:0") == .userChannel(adapter: 0))
        #expect(try HCITransportSpec(parsing: "hci:hci1") == .userChannel(adapter: 1))
        #expect(try HCITransportSpec(parsing: "tcp:127.0.0.1:5000") == .tcp(host: "127.0.0.1", port: 5000))
        #expect(try HCITransportSpec(parsing: "tcp:[::1]:5000") == .tcp(host: "::1", port: 5000))
        #expect(try HCITransportSpec(parsing: "tcp:controller.local:9000") == .tcp(host: "controller.local", port: 9000))
        #expect(try HCITransportSpec(parsing: "serial:/dev/ttyACM0")
            == .serial(path: "/dev/ttyACM0", baudRate: 1_000_000, hardwareFlowControl: false))
        #expect(try HCITransportSpec(parsing: "serial:/dev/ttyUSB0@115200")
            == .serial(path: "/dev/ttyUSB0", baudRate: 115_200, hardwareFlowControl: false))
        #expect(try HCITransportSpec(parsing: "serial:/dev/ttyUSB0@921600,rtscts")
            == .serial(path: "/dev/ttyUSB0", baudRate: 921_600, hardwareFlowControl: true))
        #expect(try HCITransportSpec(parsing: "tcp:[::1]:5000").description == "tcp:[::1]:5000")
        #expect(try HCITransportSpec(parsing: "serial:/dev/ttyUSB0@921600,rtscts").description == "serial:/dev/ttyUSB0@921600,rtscts")
    }

    @Test("backend specs: bluez[:hciN] for BlueZ, everything else this program's own host")
    func backendSpecs() throws {
        #expect(try BluetoothBackendSpec(parsing: "bluez") == .bluez(adapter: nil))
        #expect(try BluetoothBackendSpec(parsing: "BlueZ:hci1") == .bluez(adapter: "hci1"))
        #expect(try BluetoothBackendSpec(parsing: "bluez:2") == .bluez(adapter: "hci2"))
        #expect(try BluetoothBackendSpec(parsing: "bluez:hci1").description == "bluez:hci1")
        #expect(try BluetoothBackendSpec(parsing: "hci:0") == .host(.userChannel(adapter: 0)))
        #expect(try BluetoothBackendSpec(parsing: "tcp:127.0.0.1:5000").description == "tcp:127.0.0.1:5000")
        #expect(throws: BluetoothError.invalidTransportSpec(spec: "bluez:x", problem: "\"x\" is not an adapter (bluez:hci0 or bluez:0)")) {
            try BluetoothBackendSpec(parsing: "bluez:x")
        }
        let error = BluetoothError.invalidTransportSpec(spec: "usb:1", problem: "unknown kind \"usb\"")
        #expect(error.description.contains("Use bluez[:hciN] (bluetoothd over D-Bus), hci:N"))
    }

    @Test("bad specs say what is wrong and which forms exist")
    func badSpecs() {
        let cases: [(String, String)] = [
            ("hci:x", "not an adapter index"), ("tcp:host", "missing the port"), ("tcp:host:0", "is not a port"),
            ("tcp::5000", "missing the host"), ("serial:", "missing the device path"),
            ("serial:/dev/ttyS0@123", "unsupported baud rate 123"), ("serial:/dev/ttyS0,xonxoff", "unknown serial option"),
            ("usb:0", "unknown kind \"usb\""), ("/dev/ttyACM0", "missing the kind prefix"), ("nothing", "missing the kind prefix"),
        ]
        for (spec, problem) in cases {
            #expect {
                _ = try HCITransportSpec(parsing: spec)
            } throws: { error in
                let text = "\(error)"
                return text.contains(problem) && text.contains("hci:N") && text.contains("tcp:HOST:PORT") && text.contains("serial:PATH")
            }
        }
    }

    @Test("hci:N fails with a message that tells the user what to do")
    func userChannelErrors() async throws {
        // On this machine (no kernel Bluetooth) socket() fails with EAFNOSUPPORT; on one with
        // Bluetooth, binding adapter 65000 fails with ENODEV, or EPERM without CAP_NET_ADMIN.
        await #expect {
            _ = try await HCITransportSpec.userChannel(adapter: 65000).open()
        } throws: { error in
            guard case BluetoothError.transportOpenFailed(let transport, _, let code) = error else { return false }
            let text = "\(error)"
            switch code {
            case EAFNOSUPPORT: return transport == "hci:65000" && text.contains("sudo modprobe bluetooth") && text.contains("--hci serial:")
            case ENODEV, EINVAL: return text.contains("no adapter hci65000") && text.contains("btmgmt info")
            case EPERM, EACCES: return text.contains("CAP_NET_ADMIN") && text.contains("setcap cap_net_admin+ep")
            default: return false
            }
        }
    }

    @Test("every user-channel errno maps to its fix")
    func userChannelFixes() {
        func message(_ code: Int32) -> String {
            "\(BluetoothError.transportOpenFailed(transport: "hci:0", operation: "bind", errno: code))"
        }
        #expect(message(EAFNOSUPPORT).contains("modprobe bluetooth"))
        #expect(message(EPERM).contains("CAP_NET_ADMIN") && message(EPERM).contains("sudo setcap cap_net_admin+ep"))
        #expect(message(EBUSY).contains("sudo btmgmt --index 0 power off") && message(EBUSY).contains("systemctl stop bluetooth"))
        #expect(message(ENODEV).contains("there is no adapter hci0"))
        #expect(message(EUSERS).contains("another program holds hci0"))
        #expect(message(ERFKILL).contains("rfkill unblock bluetooth"))
        #expect(message(EBUSY).hasPrefix("cannot open hci:0 (bind: "))
    }

    @Test("tcp: a refused connection says to start the controller first")
    func tcpRefused() async throws {
        let port = try freeTCPPort()
        await #expect {
            _ = try await H4SocketTransport.connect(host: "127.0.0.1", port: UInt16(port))
        } throws: { error in
            guard case BluetoothError.transportOpenFailed(_, "connect", ECONNREFUSED) = error else { return false }
            return "\(error)".contains("start the controller bridge or emulator first")
        }
    }

    @Test("serial: a missing device and a non-tty are explained")
    func serialErrors() async throws {
        await #expect {
            _ = try await HCITransportSpec.serial(path: "/nonexistent/ttyACM9", baudRate: 115_200, hardwareFlowControl: false).open()
        } throws: { error in
            "\(error)".contains("no such device") && "\(error)".contains("ls /dev/ttyACM*")
        }
        let regularFile = PackagePaths.file("Package.swift").path
        await #expect {
            _ = try await HCITransportSpec.serial(path: regularFile, baudRate: 115_200, hardwareFlowControl: false).open()
        } throws: { error in
            "\(error)".contains("not a terminal device")
        }
    }
}
