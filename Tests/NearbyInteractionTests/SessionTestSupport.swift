import Foundation
import Logging
import LowEnergy
import NearbyInteraction
import NearbyTestSupport
import Ranging
import Simulation
import Synchronization
import UWBDevice
import NIProtocol

/// Records a stream of session events so a test can wait for one and then assert on all.
final class EventRecorder: Sendable {
    private struct State {
        var events: [NearbySessionEvent] = []
        var finished = false
    }
    private final class Box: Sendable { let state = Mutex(State()) }
    private let box = Box()
    private let task: Task<Void, Never>

    init<Events: AsyncSequence<NearbySessionEvent, Never> & Sendable>(_ stream: Events) {
        let box = box
        task = Task {
            for await event in stream { box.state.withLock { $0.events.append(event) } }
            box.state.withLock { $0.finished = true }
        }
    }

    deinit { task.cancel() }

    var events: [NearbySessionEvent] { box.state.withLock { $0.events } }
    var isFinished: Bool { box.state.withLock { $0.finished } }

    /// Waits until an event satisfies `predicate`; returns every event so far.
    @discardableResult
    func waitFor(
        _ what: String, timeout: Duration = .seconds(60), _ predicate: (NearbySessionEvent) -> Bool
    ) async throws -> [NearbySessionEvent] {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while true {
            let (events, finished) = box.state.withLock { ($0.events, $0.finished) }
            if events.contains(where: predicate) { return events }
            if finished || clock.now >= deadline {
                throw ChildProcessError(
                    "\(what) did not happen\(finished ? " (the stream ended)" : " within \(timeout)"):\n"
                        + events.filter { if case .update = $0.kind { false } else { true } }.map(\.description).joined(separator: "\n"))
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Waits until the stream ends.
    func waitForEnd(timeout: Duration = .seconds(30)) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while !isFinished {
            if clock.now >= deadline { throw ChildProcessError("the event stream did not end within \(timeout)") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Waits until `accessory` delivered `count` updates with a distance.
    @discardableResult
    func waitForUpdates(_ count: Int, of accessory: String, timeout: Duration = .seconds(60)) async throws -> [RangingUpdate] {
        try await waitFor("\(count) updates of \(accessory)", timeout: timeout) { _ in
            updates(of: accessory).count >= count
        }
        return updates(of: accessory)
    }

    /// Updates (with a distance) of one accessory.
    func updates(of accessory: String) -> [RangingUpdate] {
        events.compactMap { event in
            guard event.accessory?.id == accessory, case .update(let update) = event.kind, update.distance != nil else { return nil }
            return update
        }
    }

    /// State changes of one accessory.
    func states(of accessory: String) -> [AccessorySessionState] {
        events.compactMap { event in
            guard event.accessory?.id == accessory, case .state(let state) = event.kind else { return nil }
            return state
        }
    }

    /// Retries of one accessory.
    func retries(of accessory: String) -> [RetryEvent] {
        events.compactMap { event in
            guard event.accessory?.id == accessory, case .retry(let retry) = event.kind else { return nil }
            return retry
        }
    }

    /// Errors of one accessory.
    func errors(of accessory: String) -> [AccessorySessionError] {
        events.compactMap { event in
            guard event.accessory?.id == accessory, case .error(let error) = event.kind else { return nil }
            return error
        }
    }

    /// Plans and latencies of one accessory.
    func configurations(of accessory: String) -> [(SessionPlan, SessionLatency)] {
        events.compactMap { event in
            guard event.accessory?.id == accessory, case .configured(let plan, let latency) = event.kind else { return nil }
            return (plan, latency)
        }
    }
}

/// A logger that drops everything unless NEARBY_TEST_LOG is set.
let sessionTestLogger: Logger = {
    var logger = Logger(label: "test.ni")
    logger.logLevel = ProcessInfo.processInfo.environment["NEARBY_TEST_LOG"] == nil ? .critical : .debug
    return logger
}()

/// Short backoff for tests (real time; the world runs faster than real time). The timeouts and
/// the silence before `lost` (which starts a recovery) are 3 s: long enough that a test not
/// about them sees no retry on a loaded 2-core machine; tests about a timeout pass a shorter one.
func fastSessionConfiguration(
    maxAttempts: Int = 4, lostAfter: Double = 3, configurationTimeout: Duration = .seconds(3),
    startTimeout: Duration = .seconds(3), rangingIntervalMS: UInt16? = 100
) -> AccessorySessionConfiguration {
    AccessorySessionConfiguration(
        planning: SessionPlanningOptions(rangingIntervalMS: rangingIntervalMS),
        retry: RetryPolicy(
            maxAttempts: maxAttempts, initialBackoff: .milliseconds(20), maxBackoff: .milliseconds(200), multiplier: 2),
        configurationTimeout: configurationTimeout, startTimeout: startTimeout, stopTimeout: .milliseconds(500),
        reconnectTimeout: .seconds(2), lostAfter: lostAfter)
}

/// A demo world with `accessories` virtual accessories, started, plus an opened host client
/// and a session manager on it.
struct SessionHarness {
    let demo: DemoEnvironment
    let client: UCIClient
    let manager: NearbySessionManager
    let recorder: EventRecorder

    static func make(
        scenario: Scenario = .stand, accessories: Int = 1, noise: NoiseModel = .ideal, speed: Double = 4,
        uwbs: VirtualUWBSConfiguration = .default, hostUWBS: VirtualUWBSConfiguration? = nil,
        configuration: AccessorySessionConfiguration = fastSessionConfiguration(),
        accessory: @escaping @Sendable (Int) -> VirtualNIAccessoryConfiguration = {
            VirtualNIAccessoryConfiguration(address: 0x0A01 + UInt16($0))
        }
    ) async throws -> SessionHarness {
        let demo = try DemoEnvironment(
            scenario: scenario, accessories: accessories, noise: noise, seed: 7, clock: .realTime(speed: speed), uwbs: uwbs,
            hostUWBS: hostUWBS, accessory: accessory, logger: sessionTestLogger)
        try await demo.start()
        let client = UCIClient(transport: demo.hostTransport, logger: sessionTestLogger)
        try await client.open()
        let manager = NearbySessionManager(client: client, configuration: configuration, logger: sessionTestLogger)
        return SessionHarness(demo: demo, client: client, manager: manager, recorder: EventRecorder(manager.events))
    }

    /// Adds every accessory of the demo to the manager.
    func addAll(configuration: AccessorySessionConfiguration? = nil) async throws {
        for accessory in demo.accessories {
            try await manager.add(accessory.identity, channel: accessory.hostChannel, configuration: configuration)
        }
    }

    func shutdown() async {
        await manager.stop()
        try? await recorder.waitForEnd()
        await client.close()
        await demo.shutdown()
    }
}
