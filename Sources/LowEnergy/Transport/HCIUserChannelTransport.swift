import CBluetooth
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The kernel's HCI user channel (`hci:N`): exclusive raw access to adapter `hciN`.
///
/// `socket(AF_BLUETOOTH, SOCK_RAW, BTPROTO_HCI)` bound with `HCI_CHANNEL_USER`; each read or
/// write carries one H4-typed packet. The kernel's own stack (and bluetoothd) must not use the
/// adapter meanwhile: binding fails with EBUSY while it is powered up. Needs CAP_NET_ADMIN.
/// Every failure is a ``BluetoothError/transportOpenFailed(transport:operation:errno:)`` whose
/// message says what to do (load the kernel module, grant the capability, `btmgmt power off`,
/// stop bluetoothd, check the adapter index).
public final class HCIUserChannelTransport: HCITransport {
    /// `"hci:N"`.
    public let name: String
    /// The adapter index (N of hciN).
    public let adapterIndex: UInt16
    private let channel: FileDescriptorChannel

    /// Packets from the controller; see ``HCITransport/packets``.
    public var packets: AsyncThrowingStream<HCIPacket, any Error> { channel.packets }

    /// Opens the user channel of adapter `hciN`.
    /// - Throws: ``BluetoothError/transportOpenFailed(transport:operation:errno:)``: EAFNOSUPPORT
    ///   (no kernel Bluetooth), EPERM (no CAP_NET_ADMIN), EBUSY (adapter up / bluetoothd),
    ///   ENODEV (no such adapter), EUSERS (user channel already held).
    public init(adapter index: UInt16) throws(BluetoothError) {
        let name = "hci:\(index)"
        let fd = socket(AF_BLUETOOTH, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), BTPROTO_HCI)
        guard fd >= 0 else { throw .transportOpenFailed(transport: name, operation: "socket", errno: errno) }
        var address = sockaddr_hci()
        address.hci_family = sa_family_t(AF_BLUETOOTH)
        address.hci_dev = index
        address.hci_channel = UInt16(HCI_CHANNEL_USER)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_hci>.size))
            }
        }
        guard bound == 0 else {
            let code = errno
            Glibc.close(fd)
            throw .transportOpenFailed(transport: name, operation: "bind", errno: code)
        }
        self.name = name
        self.adapterIndex = index
        self.channel = try FileDescriptorChannel(fd: fd, name: name, framing: .datagram)
    }

    /// Sends one packet (one datagram); see ``HCITransport/send(_:)``.
    public func send(_ packet: HCIPacket) async throws(BluetoothError) {
        try await channel.send(packet)
    }

    /// Closes the socket; the kernel may then use the adapter again.
    public func close() async {
        await channel.close()
    }
}
