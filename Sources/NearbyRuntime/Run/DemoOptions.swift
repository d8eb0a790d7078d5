import NIProtocol
import Simulation
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
    /// asking for 4 slots short enough that the rounds of all `accessories` fit half the
    /// interval on the host's one radio (at most 3600 RSTU, 3 ms, each), so the host's kit can
    /// interleave them (specs/virtual-uwbs.md §3).
    func accessory(address: UInt16, accessories: Int = 1, keyByteOrder: UWBKeyByteOrder) -> VirtualNIAccessoryConfiguration {
        guard let interval = rangingIntervalMS else {
            return VirtualNIAccessoryConfiguration(address: address, keyByteOrder: keyByteOrder)
        }
        let slot = UInt16(max(1, min(3600, Int(interval) * 1200 / (4 * 2 * max(1, accessories)))))
        return VirtualNIAccessoryConfiguration(
            layout: .v2_0, address: address,
            requestedParameters: .init(hoppingMode: 0, slotsPerRound: 4, slotDurationRSTU: slot, rangingIntervalMS: interval),
            keyByteOrder: keyByteOrder)
    }
}

extension DemoOptions {
    /// Options from text as on `nearby demo`'s command line.
    /// - Parameters:
    ///   - rangingIntervalMS: `--interval-ms`.
    ///   - serveKit: `--serve-kit`: `HOST:PORT` (an IPv6 host may be in brackets: `[::1]:7000`).
    ///   - kit: `--kit`: a `UWBDeviceSpec` (`tcp:HOST:PORT`, `usb:VID:PID`).
    ///   - uciCapture: where the host's UCI packets are recorded.
    /// - Throws: ``DemoOptionsError`` naming the flag whose value is malformed.
    public init(rangingIntervalMS: UInt16?, serveKit: String?, kit: String?, uciCapture: UCICaptureLog? = nil) throws(DemoOptionsError) {
        var serve: (String, UInt16)?
        if let serveKit {
            guard let colon = serveKit.lastIndex(of: ":"), let port = UInt16(serveKit[serveKit.index(after: colon)...]) else {
                throw DemoOptionsError(description: "--serve-kit \"\(serveKit)\" is not HOST:PORT")
            }
            let bracket: (Character) -> Bool = { $0 == "[" || $0 == "]" }
            var host = serveKit[..<colon].drop(while: bracket)
            while let last = host.last, bracket(last) { host = host.dropLast() }
            serve = (String(host), port)
        }
        var hostKit: UWBDeviceSpec?
        if let kit {
            do {
                hostKit = try UWBDeviceSpec(parsing: kit)
            } catch {
                throw DemoOptionsError(description: "--kit: \(error)")
            }
        }
        self.init(rangingIntervalMS: rangingIntervalMS, serve: serve, hostKit: hostKit, uciCapture: uciCapture)
    }
}

/// A malformed `nearby demo` option: the message names the flag and what it expects.
public struct DemoOptionsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, e.g. `--serve-kit "x" is not HOST:PORT`.
    public var description: String

    /// An error saying `description`.
    public init(description: String) { self.description = description }
}
