import Foundation
import LowEnergy
import Logging
import NearbySupport
import NearbyTestSupport
import Synchronization

/// One Bumble test peer (Tests/Peers/ble_peer.py) on its own free port: virtual controller C0
/// for our host on tcp-server:127.0.0.1:PORT, plus an advertising GATT accessory.
final class BumblePeer: Sendable {
    let process: ChildProcess
    let port: Int
    /// The accessory's address (random static).
    let accessoryAddress = BluetoothAddress("F0:F1:F2:F3:F4:F5")!

    private init(process: ChildProcess, port: Int) {
        self.process = process
        self.port = port
    }

    /// Starts a peer and waits for its READY line (after advertising started).
    /// - Throws: ``MissingTool`` if the venv with Bumble is missing; the peer's output if it
    ///   fails to start.
    static func start(_ arguments: [String] = [], transport: String? = nil) async throws -> BumblePeer {
        let python = try PackagePaths.venvPython()
        let script = PackagePaths.file("Tests/Peers/ble_peer.py")
        let port = try freeTCPPort()
        let where_ = transport.map { ["--transport", $0] } ?? ["--port", "\(port)"]
        let process = try ChildProcess(python, [script.path] + where_ + arguments,
                                       environment: ["PYTHONUNBUFFERED": "1"])
        do {
            try await process.waitForOutput("READY", timeout: .seconds(60))
        } catch {
            if process.stderr.contains("No module named 'bumble'") {
                throw MissingTool("Bumble is not installed in the test venv; run `make test` (it runs `make venv`)")
            }
            throw error
        }
        return BumblePeer(process: process, port: port)
    }

    /// The spec of C0's transport.
    var spec: HCITransportSpec { .tcp(host: "127.0.0.1", port: UInt16(port)) }

    /// A started host on C0.
    func startHost(_ configuration: BLEHostConfiguration = BLEHostConfiguration(commandTimeout: .seconds(5)),
                   security: SecurityContext = SecurityContext()) async throws -> BLEHost {
        try await BLEHost.open(spec, configuration: configuration, security: security, logger: testLogger)
    }

    /// Lines the peer printed that start with `prefix`.
    func lines(_ prefix: String) -> [String] {
        process.lines(startingWith: prefix)
    }

    /// Waits until the peer printed at least `count` lines starting with `prefix` (for lines the
    /// peer prints after the event the test saw, e.g. `NOTIFIED` once its notification went out).
    /// - Returns: the number of such lines then.
    @discardableResult
    func waitForLines(_ prefix: String, count: Int, timeout: Duration = .seconds(20)) async throws -> Int {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while lines(prefix).count < count {
            guard clock.now < deadline else {
                throw ChildProcessError("the peer printed \(lines(prefix).count) of \(count) \"\(prefix)\" lines:\n\(process.stdout)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return lines(prefix).count
    }

    /// Waits until the peer printed a line containing `text`.
    func waitFor(_ text: String, timeout: Duration = .seconds(20)) async throws {
        do {
            try await process.waitForOutput(text, timeout: timeout)
        } catch {
            throw ChildProcessError("\(error)\nthe peer printed:\n\(process.stdout.suffix(4000))\n\(process.stderr.suffix(2000))")
        }
    }

    func stop() {
        process.terminate()
    }
}

/// The tests' logger: silent unless NEARBY_TEST_LOG is set (then everything, to stderr).
let testLogger: Logger = {
    var logger = Logger(label: "test.ble")
    logger.logLevel = ProcessInfo.processInfo.environment["NEARBY_TEST_LOG"] == nil ? .critical : .trace
    return logger
}()

/// The first element of `stream` matching `predicate`, or a failure after `timeout`.
func first<Element: Sendable>(_ stream: AsyncStream<Element>, timeout: Duration = .seconds(20),
                              where predicate: @escaping @Sendable (Element) -> Bool = { _ in true }) async throws -> Element {
    try await withTimeout(timeout, operation: "waiting for a matching \(Element.self)") {
        for await element in stream where predicate(element) { return element }
        throw ChildProcessError("the stream of \(Element.self) ended before a match")
    }
}

/// Every element of `stream` that arrives within `duration`.
func collect<Element: Sendable>(_ stream: AsyncStream<Element>, for duration: Duration) async -> [Element] {
    let box = ElementBox<Element>()
    _ = try? await withTimeout(duration, operation: "collecting") {
        for await element in stream { box.append(element) }
        return true
    }
    return box.elements
}

final class ElementBox<Element: Sendable>: Sendable {
    private let storage = Mutex<[Element]>([])
    func append(_ element: Element) { storage.withLock { $0.append(element) } }
    var elements: [Element] { storage.withLock { $0 } }
}
