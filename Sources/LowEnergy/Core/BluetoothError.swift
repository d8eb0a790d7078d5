#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NearbyBase

/// Everything that can go wrong in the BLE host, with a message that says what was wrong and
/// what to do (``description``).
public enum BluetoothError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A transport spec (`hci:N`, `tcp:HOST:PORT`, `serial:PATH[@BAUD]`) could not be parsed.
    case invalidTransportSpec(spec: String, problem: String)
    /// Opening a transport failed in a system call (`operation`, e.g. "bind", with `errno`).
    /// The message names the fix: kernel support, CAP_NET_ADMIN, `btmgmt`, bluetoothd, dialout.
    case transportOpenFailed(transport: String, operation: String, errno: Int32)
    /// The transport stopped working while in use (I/O error, the peer closed it, or it was closed).
    case transportClosed(transport: String, reason: String)
    /// The controller sent bytes that are not valid HCI (`detail` says which and where).
    case malformedPacket(detail: String)
    /// An HCI command was answered with a non-zero status.
    case commandFailed(command: String, status: HCIStatus)
    /// An operation did not finish within its deadline (`operation` names it: the HCI command,
    /// the ATT request, the connection attempt; `hint` says what usually causes it).
    case timeout(operation: String, timeout: Duration, hint: String? = nil)
    /// The accessory answered an ATT request with an Error Response.
    case attError(code: ATTErrorCode, request: String, handle: UInt16)
    /// The connection ended (`reason` as the controller reported it).
    case disconnected(reason: HCIStatus)
    /// The connection attempt to `address` was cancelled (``BLEHost/cancelConnect()`` or task
    /// cancellation).
    case connectionCancelled(address: BluetoothAddress)
    /// The task waiting for `operation` was cancelled.
    case cancelled(operation: String)
    /// The host is not in a state to do this (`detail` says why, e.g. not started, closed).
    case notReady(detail: String)
    /// Another operation of the same kind is running (`detail` names it).
    case busy(detail: String)
    /// A message or value is longer than one ATT write can carry.
    case messageTooLong(length: Int, maximum: Int)
    /// A service, characteristic or descriptor the operation needs is missing.
    case notFound(detail: String)
    /// The accessory or controller lacks something the operation needs.
    case unsupported(detail: String)
    /// The accessory sent a malformed ATT/L2CAP response (`detail` has the bytes).
    case invalidResponse(detail: String)
    /// A parameter is out of range (`detail` names it, its value and the valid range).
    case invalidArgument(detail: String)
    /// Pairing or encryption failed (the ``SecurityError`` says why and what to do).
    indirect case security(SecurityError)
    /// The BlueZ backend failed (the ``BlueZError`` says why and what to do).
    case bluez(BlueZError)

    /// What went wrong and what to do about it.
    public var description: String {
        switch self {
        case .invalidTransportSpec(let spec, let problem):
            return "invalid HCI transport \"\(spec)\": \(problem). Use bluez[:hciN] (bluetoothd over D-Bus), hci:N (kernel "
                + "adapter N through the HCI user channel), tcp:HOST:PORT (H4 over TCP) or serial:PATH[@BAUD][,rtscts] (H4 over a UART or pty)"
        case .transportOpenFailed(let transport, let operation, let code):
            return "cannot open \(transport) (\(operation): \(Self.errorText(code))): "
                + Self.fix(transport: transport, errno: code)
        case .transportClosed(let transport, let reason):
            return "HCI transport \(transport) closed: \(reason)"
        case .malformedPacket(let detail):
            return "the controller sent a malformed HCI packet: \(detail)"
        case .commandFailed(let command, let status):
            var text = "\(command) failed with status \(status)"
            if let hint = status.hint { text += ": \(hint)" }
            return text
        case .timeout(let operation, let timeout, let hint):
            return "\(operation) timed out after \(format(timeout))" + (hint.map { ": \($0)" } ?? "")
        case .attError(let code, let request, let handle):
            var text = "the accessory refused \(request) on handle 0x\(hex(handle)): ATT error \(code)"
            if let hint = code.hint { text += ": \(hint)" }
            return text
        case .disconnected(let reason):
            var text = "disconnected: \(reason)"
            if let hint = reason.hint { text += " (\(hint))" }
            return text
        case .connectionCancelled(let address):
            return "the connection attempt to \(address) was cancelled"
        case .cancelled(let operation):
            return "\(operation) was cancelled"
        case .notReady(let detail):
            return "the BLE host is not ready: \(detail)"
        case .busy(let detail):
            return "busy: \(detail)"
        case .messageTooLong(let length, let maximum):
            return "message of \(length) bytes is longer than the \(maximum) bytes one ATT write carries "
                + "(ATT_MTU - 3); split it at the protocol level or negotiate a larger MTU"
        case .notFound(let detail):
            return "not found: \(detail)"
        case .unsupported(let detail):
            return "unsupported: \(detail)"
        case .invalidResponse(let detail):
            return "the accessory sent an invalid response: \(detail)"
        case .invalidArgument(let detail):
            return "invalid argument: \(detail)"
        case .security(let error):
            return "\(error)"
        case .bluez(let error):
            return "\(error)"
        }
    }

    /// `true` for errors that end a connection (disconnected, transport closed).
    public var isLinkLoss: Bool {
        switch self {
        case .disconnected, .transportClosed: return true
        default: return false
        }
    }

    static func errorText(_ code: Int32) -> String {
        "\(String(cString: strerror(code))) (errno \(code))"
    }

    /// What a user can do about `errno` when opening `transport`.
    static func fix(transport: String, errno code: Int32) -> String {
        let kind = transport.prefix { $0 != ":" }
        let index = transport.split(separator: ":").dropFirst().first.map(String.init) ?? "N"
        switch (kind, code) {
        case ("hci", EAFNOSUPPORT):
            return "this kernel has no Bluetooth socket support (AF_BLUETOOTH). Load it with "
                + "`sudo modprobe bluetooth` (containers, WSL and some VMs have none), or attach an "
                + "H4 controller and use --hci serial:/dev/ttyACM0 or --hci tcp:HOST:PORT"
        case ("hci", EPERM), ("hci", EACCES):
            return "the HCI user channel needs the CAP_NET_ADMIN capability. Run as root, or grant it "
                + "once with `sudo setcap cap_net_admin+ep \"$(command -v nearby)\"`"
        case ("hci", EBUSY):
            return "hci\(index) is up and in use (usually by bluetoothd). Power it off for the kernel "
                + "with `sudo btmgmt --index \(index) power off` (or stop BlueZ: `sudo systemctl stop bluetooth`), "
                + "then retry; bluetoothd may power it on again while it runs"
        case ("hci", ENODEV), ("hci", EINVAL):
            return "there is no adapter hci\(index). List adapters with `btmgmt info` or "
                + "`ls /sys/class/bluetooth`, and check that the adapter is plugged in"
        case ("hci", EUSERS), ("hci", EALREADY):
            return "another program holds hci\(index)'s user channel (another nearby, Bumble or "
                + "btproxy process): stop it first"
        case ("hci", ERFKILL):
            return "hci\(index) is blocked by rfkill: `sudo rfkill unblock bluetooth`"
        case ("tcp", ECONNREFUSED):
            return "nothing accepts connections on that port: start the controller bridge or "
                + "emulator first (e.g. a Bumble tcp-server transport)"
        case ("tcp", ETIMEDOUT), ("tcp", EHOSTUNREACH), ("tcp", ENETUNREACH):
            return "the host is unreachable: check the address and the network"
        case ("serial", ENOENT):
            return "no such device: check the path (`ls /dev/ttyACM* /dev/ttyUSB*`) and that the "
                + "controller is plugged in"
        case ("serial", EACCES), ("serial", EPERM):
            return "permission denied: add yourself to the dialout group "
                + "(`sudo usermod -aG dialout $USER`, then log in again) or install a udev rule"
        case ("serial", EBUSY):
            return "the device is in use by another program (ModemManager, a terminal, btattach): stop it"
        case ("serial", ENOTTY):
            return "this path is not a terminal device: give the controller's tty (or a pty)"
        default:
            return "check that the controller is connected and not used by another program"
        }
    }
}

/// `"2 s"` or `"1500 ms"`.
func format(_ duration: Duration) -> String { duration.compactText }
