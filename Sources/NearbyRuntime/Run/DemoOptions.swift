public import NIProtocol
public import Simulation
public import UWBDevice

/// How `nearby demo` runs beyond its scenario: the accessories' ranging interval, and how the
/// host reaches its virtual dev kit (in process by default; over TCP or through the USB
/// emulator for load and fault tests).
public struct DemoOptions: Sendable {
    /// The ranging interval the accessories ask for, ms (their ACD 2.0 requests it, the host
    /// plans it); `nil`: the planner's default.
    public var rangingIntervalMS: UInt16?
    /// Serve the world's host kit over TCP at `(host, port)` (port 0: the kernel picks), raw UCI
    /// as `nearby sim uwbs`: what `hostKit` connects to (directly, or through the umockdev USB
    /// emulator).
    public var serve: (host: String, port: UInt16)?
    /// The host's kit; `nil`: the world's in-process host kit.
    public var hostKit: UWBDeviceSpec?
    /// Where the host's UCI packets are recorded (`--uci-log`).
    public var uciCapture: UCICaptureLog?

    /// Creates options; by default the demo as it always was.
    public init(
        rangingIntervalMS: UInt16? = nil, serve: (host: String, port: UInt16)? = nil, hostKit: UWBDeviceSpec? = nil,
        uciCapture: UCICaptureLog? = nil
    ) {
        self.rangingIntervalMS = rangingIntervalMS
        self.serve = serve
        self.hostKit = hostKit
        self.uciCapture = uciCapture
    }

    /// The configuration of the accessory with `address`: with a ranging interval, an ACD 2.0
    /// asking for 4 slots that fit the interval with room for the round's extra slot (at most
    /// 3600 RSTU, 3 ms, each).
    func accessory(address: UInt16, keyByteOrder: UWBKeyByteOrder) -> VirtualNIAccessoryConfiguration {
        guard let interval = rangingIntervalMS else {
            return VirtualNIAccessoryConfiguration(address: address, keyByteOrder: keyByteOrder)
        }
        let slot = UInt16(min(3600, Int(interval) * 1200 / 6))
        return VirtualNIAccessoryConfiguration(
            layout: .v2_0, address: address,
            requestedParameters: .init(hoppingMode: 0, slotsPerRound: 4, slotDurationRSTU: slot, rangingIntervalMS: interval),
            keyByteOrder: keyByteOrder)
    }
}
