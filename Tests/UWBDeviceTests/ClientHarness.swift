import Logging
import NearbyTestSupport
import Synchronization
import Testing
import UCI
import UWBDevice

/// A client talking to a ``FakeUWBS`` over one of two links: the in-memory transport (byte
/// assertions, unplug/replug) or TCP through a `ScriptedUCIServer` (a real socket, replies
/// written in chunks).
final class ClientHarness: Sendable {
    enum Link: String, Sendable, CaseIterable, CustomTestStringConvertible {
        case memory
        case tcp
        var testDescription: String { rawValue }
    }

    let link: Link
    let fake: FakeUWBS
    let client: UCIClient
    let memory: MemoryTransport?
    let server: ScriptedUCIServer?
    /// Everything the client logged.
    let log = RecordingLogHandler.Store()

    init(_ link: Link, options: FakeUWBS.Options = .init(), configuration: UCIClientConfiguration = .init()) throws {
        self.link = link
        let fake = FakeUWBS(options)
        self.fake = fake
        let store = log
        let logger = Logger(label: "test.client") { _ in RecordingLogHandler(store: store) }
        switch link {
        case .memory:
            let memory = MemoryTransport(script: fake.respond(to:))
            self.memory = memory
            self.server = nil
            client = UCIClient(transport: memory, configuration: configuration, logger: logger)
        case .tcp:
            let server = try ScriptedUCIServer(chunkDelay: .milliseconds(1), responder: fake.respond(to:))
            self.server = server
            self.memory = nil
            client = UCIClient(
                transport: TCPTransport(host: "127.0.0.1", port: UInt16(server.port)), configuration: configuration, logger: logger)
        }
    }

    deinit { server?.stop() }

    /// Packets the UWBS received so far.
    var received: [[UInt8]] { memory?.sent ?? server?.received ?? [] }

    /// Waits until the UWBS received at least `count` packets.
    func waitForReceived(_ count: Int) async throws -> [[UInt8]] {
        if let memory { return try await memory.waitForSent(count) }
        return try await server?.waitForPackets(count) ?? []
    }

    /// Packets sent to the client as if the UWBS sent them unasked.
    func inject(_ packets: [[UInt8]]) {
        memory?.inject(packets)
        server?.send(packets)
    }

    /// The link goes away: the memory transport is unplugged for `downtime`; the TCP server
    /// drops the connection (and accepts the client's next one).
    func dropLink(downtime: Duration = .milliseconds(300)) async throws {
        if let memory {
            memory.unplug()
            try await Task.sleep(for: downtime)
            memory.plug()
        }
        server?.dropConnection()
    }

    /// Opens the client; the default parameters for a session with `id`.
    static func parameters(mac: UInt16 = 0x0001, peers: [UInt16] = [0x0002]) -> FiRaSessionParameters {
        FiRaSessionParameters(deviceMACAddress: .short(mac), destinationMACAddresses: peers.map { .short($0) }, rangingInterval: 100)
    }
}

/// Drains an AsyncStream in the background so a test can wait for elements with a deadline.
final class StreamCollector<Element: Sendable>: Sendable {
    private struct State {
        var elements: [Element] = []
        var finished = false
    }
    private final class Box: Sendable {
        let state = Mutex(State())
    }
    private let box = Box()
    private let task: Task<Void, Never>

    init(_ stream: AsyncStream<Element>) {
        let box = self.box
        task = Task {
            for await element in stream { box.state.withLock { $0.elements.append(element) } }
            box.state.withLock { $0.finished = true }
        }
    }

    deinit { task.cancel() }

    var elements: [Element] { box.state.withLock { $0.elements } }
    var isFinished: Bool { box.state.withLock { $0.finished } }

    /// Waits until an element satisfies `predicate` and returns all elements so far.
    @discardableResult
    func waitFor(_ what: String, timeout: Duration = .seconds(60), _ predicate: (Element) -> Bool) async throws -> [Element] {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while true {
            let (elements, finished) = box.state.withLock { ($0.elements, $0.finished) }
            if elements.contains(where: predicate) { return elements }
            if finished || clock.now >= deadline {
                throw ChildProcessError("\(what) did not arrive\(finished ? " (the stream ended)" : " within \(timeout)"): \(elements)")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Waits until `count` elements arrived.
    func waitForCount(_ count: Int, timeout: Duration = .seconds(20)) async throws -> [Element] {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while true {
            let (elements, finished) = box.state.withLock { ($0.elements, $0.finished) }
            if elements.count >= count { return elements }
            if finished || clock.now >= deadline {
                throw ChildProcessError("got \(elements.count) of \(count) element(s)\(finished ? " (the stream ended)" : " within \(timeout)"): \(elements)")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Waits until the stream ends.
    func waitForEnd(timeout: Duration = .seconds(20)) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while !isFinished {
            if clock.now >= deadline { throw ChildProcessError("the stream did not end within \(timeout): \(elements)") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}

/// "20 02 00 00" -> bytes.
func bytes(_ text: String) -> [UInt8] {
    text.split(separator: " ").map { UInt8($0, radix: 16)! }
}

/// A swift-log handler that keeps every entry (for assertions) instead of printing it.
struct RecordingLogHandler: LogHandler {
    final class Store: Sendable {
        let entries = Mutex<[(level: Logger.Level, message: String)]>([])
        var messages: [String] { entries.withLock { $0.map { "\($0.level): \($0.message)" } } }
    }

    let store: Store
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        store.entries.withLock { $0.append((event.level, event.message.description)) }
    }
}
