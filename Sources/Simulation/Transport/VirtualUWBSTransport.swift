public import UWBDevice
import UCI

/// A `UCITransport` to a virtual UWBS of a ``VirtualUWBSWorld``, in process: what
/// `--device sim` opens, and what tests and the demo give a UCI client.
///
/// Each ``open()`` powers up a fresh UWBS (the first packet is CORE_DEVICE_STATUS_NTF(READY))
/// and ``close()`` detaches it, like plugging a dev kit in and out; the device keeps its
/// identity (``deviceID``) and its place in the scene across reopenings. An injected
/// ``VirtualUWBSFault/disconnect(reconnectAfter:)`` ends the stream with a
/// `UWBDeviceError` of code `disconnected`; ``open()`` then fails with `notFound`
/// until the device is back, which ``waitUntilPresent(timeout:)`` waits for.
///
/// Each packet comes with the real time (`MonotonicTime`) of the world time it was sent at
/// (`UCIPacketStream.Continuation.yield(_:receivedAt:)`): a real-time world runs rounds up to
/// `VirtualUWBSWorld.batchWindow` (20 ms) before they are due, and the client stamps a round's samples
/// with the round's time, not with when the packet came. With the manual clock there is none.
public actor VirtualUWBSTransport: UCITransport {
    /// `"sim"` or the name given to ``VirtualUWBSWorld/makeTransport(configuration:placement:name:)``.
    public nonisolated let name: String
    /// The world the device lives in.
    public nonisolated let world: VirtualUWBSWorld
    /// The device's identifier in the world (for faults and snapshots).
    public nonisolated let deviceID: VirtualUWBSDeviceID
    /// The device's configuration.
    public nonisolated let configuration: VirtualUWBSConfiguration
    private let placement: VirtualUWBSPlacement
    private var inbox: VirtualUWBSInbox?
    private var continuation: UCIPacketStream.Continuation?

    init(
        world: VirtualUWBSWorld, id: VirtualUWBSDeviceID, configuration: VirtualUWBSConfiguration,
        placement: VirtualUWBSPlacement, name: String
    ) {
        self.world = world
        self.deviceID = id
        self.configuration = configuration
        self.placement = placement
        self.name = name
    }

    /// Powers up the device; see `UCITransport.open()`.
    /// - Throws: `UWBDeviceError`: `alreadyOpen`; `notFound` while unplugged or
    ///   after the world was shut down; `invalidSpec` for a configuration that does not
    ///   validate.
    public func open() async throws -> UCIPacketStream {
        if let inbox, inbox.isOpen {
            throw UWBDeviceError(.alreadyOpen, device: name, reason: "the virtual UWBS is already open", remedy: "Call close() first.")
        }
        let (stream, continuation) = UCIPacketStream.makeStream()
        let device = name
        let output = VirtualUWBSOutput(
            deliver: { packet, sentAt in continuation.yield(packet, receivedAt: sentAt) },
            timed: true,
            hangUp: { reason in
                continuation.finish(
                    throwing: UWBDeviceError(
                        .disconnected, device: device, reason: "the virtual UWBS went away: \(reason)",
                        remedy: "Wait for it (waitUntilPresent) and open it again."))
            })
        do {
            inbox = try await world.attach(
                deviceID, name: name, configuration: configuration, placement: placement, output: output)
        } catch {
            continuation.finish()
            switch error.code {
            case .invalidParameter:
                throw UWBDeviceError(.invalidSpec, device: name, reason: "invalid virtual UWBS configuration: \(error)")
            default:
                throw UWBDeviceError(
                    .notFound, device: name, reason: error.description,
                    remedy: "Wait until the virtual UWBS is back (waitUntilPresent) and open it again.")
            }
        }
        self.continuation = continuation
        return stream
    }

    /// Queues one whole UCI packet for the device; see `UCITransport.send(_:)`.
    /// Returns at once: the device processes packets in order, in the background. The packet is
    /// checked as every transport checks it (`UCIPacketCheck`) and handed over typed.
    /// - Throws: `UWBDeviceError`: `invalidPacket`, `notOpen`, `disconnected`.
    public func send(_ bytes: [UInt8]) async throws {
        guard let inbox else {
            throw UWBDeviceError(.notOpen, device: name, reason: "the virtual UWBS is not open", remedy: "Call open() first.")
        }
        let packet = try UCIPacketCheck.packet(bytes, device: name)
        guard inbox.push(packet) else {
            throw UWBDeviceError(
                .disconnected, device: name, reason: "the virtual UWBS went away",
                remedy: "Wait for it (waitUntilPresent) and open it again.")
        }
    }

    /// Detaches the device (its sessions end); the stream finishes normally. Idempotent.
    public func close() async {
        guard let inbox else { return }
        self.inbox = nil
        let wasOpen = inbox.isOpen
        continuation?.finish()
        continuation = nil
        if wasOpen { await world.detach(deviceID, reason: "the host closed the transport", hangUp: false) }
    }

    /// Waits until an injected disconnect is over.
    /// - Throws: `UWBDeviceError` code `timeout` if it is not over within `timeout`.
    public func waitUntilPresent(timeout: Duration) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while !(await world.isPresent(deviceID)) {
            guard clock.now < deadline else {
                throw UWBDeviceError(
                    .timeout, device: name, reason: "the virtual UWBS did not come back within \(timeout)",
                    remedy: "End the disconnect fault (VirtualUWBSWorld.reconnect) or wait longer.")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}
