import NearbyTestSupport
import Simulation
import Testing
import UCI
import UWBDevice

/// Bytes from hex text: "20 00 00 01 00" (``NearbyTestSupport/hexBytes(_:)``).
func bytes(_ hex: String) -> [UInt8] { hexBytes(hex) }

/// Hex text of bytes, for readable failures.
func hex(_ bytes: [UInt8]) -> String {
    bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined(separator: " ")
}

/// The host side of one in-process virtual UWBS: sends packets, reads what comes back (typed
/// packets, as every transport delivers them) in order.
actor UWBSHost {
    nonisolated let transport: VirtualUWBSTransport
    private var received: [UCIPacket] = []
    private var read = 0
    private var end: (any Error)?
    private var ended = false
    private var reader: Task<Void, Never>?
    /// What the world had delivered to this device's host before ``open()`` (a reopened link).
    private var deliveredBeforeOpen = 0

    init(_ transport: VirtualUWBSTransport) {
        self.transport = transport
    }

    /// Opens a new device of `world` and reads its power-up READY.
    static func open(
        _ world: VirtualUWBSWorld, configuration: VirtualUWBSConfiguration = .default,
        placement: VirtualUWBSPlacement = .automatic, expectReady: Bool = true
    ) async throws -> UWBSHost {
        let host = UWBSHost(world.makeTransport(configuration: configuration, placement: placement))
        try await host.open()
        if expectReady { try await host.expect("60 01 00 01 01") }
        return host
    }

    nonisolated var deviceID: VirtualUWBSDeviceID { transport.deviceID }

    func open() async throws {
        deliveredBeforeOpen = await transport.world.trafficByDevice[transport.deviceID]?.packets ?? 0
        let stream = try await transport.open()
        reader = Task { [weak self] in
            do {
                for try await packet in stream { await self?.append(packet) }
                await self?.finish(nil)
            } catch {
                await self?.finish(error)
            }
        }
    }

    private func append(_ packet: UCIPacket) { received.append(packet) }

    private func finish(_ error: (any Error)?) {
        ended = true
        end = error
    }

    func send(_ packet: [UInt8]) async throws { try await transport.send(packet) }

    func send(_ hexText: String) async throws { try await send(bytes(hexText)) }

    func send(_ command: UCICommand, segmenter: UCISegmenter = UCISegmenter()) async throws {
        for packet in try command.packets(segmenter) { try await send(packet.bytes) }
    }

    /// The next packet not read yet.
    func next(timeout: Duration = .seconds(20)) async throws -> UCIPacket {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while read >= received.count {
            if ended { throw TestFailure("the stream ended (\(end.map { "\($0)" } ?? "normally")) while waiting for a packet") }
            guard clock.now < deadline else { throw TestFailure("no packet within \(timeout)") }
            try await Task.sleep(for: .milliseconds(2))
        }
        read += 1
        return received[read - 1]
    }

    /// Reads packets and checks they are exactly `expected`, in order.
    func expect(_ expected: String..., sourceLocation: SourceLocation = #_sourceLocation) async throws {
        for text in expected {
            let packet = try await next()
            #expect(hex(packet.bytes) == hex(bytes(text)), sourceLocation: sourceLocation)
        }
    }

    /// Reads the next packet and decodes it.
    func nextMessage(version: UCIVersion = .v2_0) async throws -> UCIMessage {
        try UCIMessage(packet: try await next(), version: version)
    }

    /// Reads whole messages (reassembling segments) until one satisfies `match`.
    func readMessages(until match: (UCIRawMessage) -> Bool, timeout: Duration = .seconds(20)) async throws -> [UCIRawMessage] {
        var reassembler = UCIReassembler()
        var messages: [UCIRawMessage] = []
        while true {
            guard let message = try reassembler.append(try await next(timeout: timeout)) else { continue }
            messages.append(message)
            if match(message) { return messages }
        }
    }

    /// Packets received but not read yet: waits `settle`, then until every packet the world
    /// has delivered to this device's host so far has reached this reader (the world counts
    /// them, ``VirtualUWBSWorld/trafficByDevice``), so a loaded machine that runs the reader
    /// late loses nothing (a wall-clock wait alone did, under load 7-8).
    func unread(settle: Duration = .milliseconds(50), timeout: Duration = .seconds(20)) async throws -> [UCIPacket] {
        try await Task.sleep(for: settle)
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while !ended {
            let delivered = (await transport.world.trafficByDevice[transport.deviceID]?.packets ?? 0) - deliveredBeforeOpen
            if received.count >= delivered { break }
            guard clock.now < deadline else {
                throw TestFailure("\(delivered - received.count) of \(delivered) packets did not reach the reader within \(timeout)")
            }
            try await Task.sleep(for: .milliseconds(2))
        }
        defer { read = received.count }
        return Array(received[read...])
    }

    /// How the stream ended (`nil` while it runs or when it ended normally).
    func endError(timeout: Duration = .seconds(20)) async throws -> (any Error)? {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while !ended {
            guard clock.now < deadline else { throw TestFailure("the stream did not end within \(timeout)") }
            try await Task.sleep(for: .milliseconds(5))
        }
        return end
    }

    func close() async { await transport.close() }

    // MARK: Scripts

    /// CORE_DEVICE_RESET -> RSP OK + READY.
    func reset() async throws {
        try await send("20 00 00 01 00")
        try await expect("40 00 00 01 00", "60 01 00 01 01")
    }

    /// SESSION_INIT -> the token (handle in 2.0), after checking RSP OK and STATUS_NTF(INIT).
    func initSession(_ id: UInt32, version: UCIVersion = .v2_0) async throws -> UInt32 {
        try await send(.sessionInit(sessionID: id, type: .ranging))
        guard case .response(.sessionInit(.ok, let handle)) = try await nextMessage() else {
            throw TestFailure("SESSION_INIT failed")
        }
        let token = handle ?? id
        #expect(version.usesVersion2Layout == (handle != nil))
        guard case .notification(.sessionStatus(token, .initialized, .stateChangeWithSessionManagementCommands)) = try await nextMessage()
        else { throw TestFailure("no SESSION_STATUS_NTF(INIT)") }
        return token
    }

    /// SET_APP_CONFIG -> RSP OK + STATUS_NTF(IDLE).
    func configure(_ token: UInt32, _ configs: [UCIAppConfig]) async throws {
        try await send(.setAppConfig(session: token, configs: configs))
        let response = try await nextMessage()
        guard case .response(.setAppConfig(.ok, [])) = response else { throw TestFailure("SET_APP_CONFIG: \(response)") }
        let notification = try await nextMessage()
        guard case .notification(.sessionStatus(token, .idle, _)) = notification else {
            throw TestFailure("expected SESSION_STATUS_NTF(IDLE), got \(notification)")
        }
    }

    /// SESSION_START -> RSP OK + STATUS_NTF(ACTIVE) (+ DEVICE_STATUS_NTF(ACTIVE) if first).
    func start(_ token: UInt32, firstActive: Bool = true) async throws {
        try await send(.sessionStart(session: token))
        guard case .response(.sessionStart(.ok)) = try await nextMessage() else { throw TestFailure("SESSION_START failed") }
        guard case .notification(.sessionStatus(token, .active, _)) = try await nextMessage() else {
            throw TestFailure("no SESSION_STATUS_NTF(ACTIVE)")
        }
        if firstActive {
            guard case .notification(.deviceStatus(.active)) = try await nextMessage() else {
                throw TestFailure("no DEVICE_STATUS_NTF(ACTIVE)")
            }
        }
    }

    /// Reset, init, configure and start a ranging session; returns its token.
    func startRanging(
        session id: UInt32 = 42, configs: [UCIAppConfig], version: UCIVersion = .v2_0
    ) async throws -> UInt32 {
        try await reset()
        let token = try await initSession(id, version: version)
        try await configure(token, configs)
        try await start(token)
        return token
    }
}

/// A failed test step.
struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// App configurations for tests.
enum Configs {
    /// Unicast DS-TWR; `controller` is controller + initiator, else controlee + responder.
    static func session(
        controller: Bool, mac: UInt16, peer: UInt16, channel: UInt8 = 9, preamble: UInt8 = 10, interval: UInt32 = 200,
        extra: [UCIAppConfig] = []
    ) -> [UCIAppConfig] {
        [
            .deviceType(controller ? .controller : .controlee), .deviceRole(controller ? .initiator : .responder),
            .multiNodeMode(.unicast), .rangingRoundUsage(.dsTWRDeferred), .scheduleMode(.timeScheduled),
            .deviceMACAddress(.short(mac)), .destinationMACAddresses([.short(peer)]), .channelNumber(channel),
            .preambleCodeIndex(preamble), .rangingDuration(milliseconds: interval),
        ] + extra
    }
}

/// Collects a world's events in the background.
actor EventLog {
    private(set) var events: [VirtualUWBSEvent] = []
    private var task: Task<Void, Never>?

    init(_ world: VirtualUWBSWorld) {
        let stream = world.events()
        Task { await self.consume(stream) }
    }

    private func consume(_ stream: AsyncStream<VirtualUWBSEvent>) async {
        for await event in stream { events.append(event) }
    }

    /// The round records so far.
    var rounds: [VirtualRangingRound] {
        events.compactMap { if case .round(let round) = $0 { round } else { nil } }
    }

    /// Waits until `predicate` holds for the events.
    func wait(timeout: Duration = .seconds(20), until predicate: ([VirtualUWBSEvent]) -> Bool) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while !predicate(events) {
            guard clock.now < deadline else { throw TestFailure("events did not arrive within \(timeout): \(events.count) so far") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
