import Hooks
import NearbyInteraction
import Ranging
import NIProtocol

/// Feeds the zone-trigger hooks from session events (`nearby range`, `nearby demo`): one
/// ``HookEventBuilder`` per accessory turns its ranging events into ``HookEvent``s for the
/// ``HookRunner``, which runs matching hooks off the event loop (`submit` never blocks).
///
/// An accessory's session emits a sample's ranging events (`found`, `exited`, `entered`) just
/// before that sample's update; they are held until the update arrives so the hook sees the
/// smoothed distance of the sample that caused them. A `lost` (silence: no update follows) goes
/// out at once.
///
/// `@unchecked Sendable`: used by the event loop's task only.
final class SessionHooks: @unchecked Sendable {
    let runner: HookRunner
    private let zones: ZoneMap
    private var builders: [String: HookEventBuilder] = [:]
    private var pending: [String: [RangingEvent]] = [:]
    private var reporter: Task<Void, Never>?

    /// Creates the adapter and starts showing every hook outcome on `screen`.
    init(runner: HookRunner, zones: ZoneMap, screen: RangeScreen) {
        self.runner = runner
        self.zones = zones
        let outcomes = runner.outcomes()
        reporter = Task {
            for await outcome in outcomes { screen.hook(outcome) }
        }
    }

    /// Ends the hooks: waits for queued and running ones (each bounded by its timeout), or after
    /// Ctrl-C / SIGTERM ends them (SIGTERM, then SIGKILL): hooks run in their own process
    /// groups, so the terminal's signal does not reach them.
    func end(interrupted: Bool) async {
        if interrupted {
            await runner.cancel()
        } else {
            await runner.finish()
        }
        await reporter?.value
    }

    /// Handles one session event (others than updates and ranging events are ignored).
    func handle(_ event: NearbySessionEvent) {
        guard let accessory = event.accessory else { return }
        switch event.kind {
        case .ranging(.lost, _):
            flush(accessory, distance: nil)
            submit([event.rangingEvent].compactMap { $0 }, for: accessory, distance: nil)
        case .ranging(let ranging, _):
            pending[accessory.id, default: []].append(ranging)
        case .update(let update):
            flush(accessory, distance: update.distance)
        default:
            break
        }
    }

    /// Submits what is still held (at the end of a run).
    func flushAll() {
        for id in pending.keys {
            guard let builder = builders[id] else { continue }
            submit(pending[id] ?? [], for: AccessoryIdentity(id: id, displayName: builder.accessoryName), distance: nil)
        }
        pending.removeAll()
    }

    private func flush(_ accessory: AccessoryIdentity, distance: Double?) {
        guard let held = pending.removeValue(forKey: accessory.id), !held.isEmpty else { return }
        submit(held, for: accessory, distance: distance)
    }

    private func submit(_ events: [RangingEvent], for accessory: AccessoryIdentity, distance: Double?) {
        guard !events.isEmpty else { return }
        var builder = builders[accessory.id]
            ?? HookEventBuilder(accessoryName: accessory.displayName, accessoryID: accessory.id, zones: zones)
        for hookEvent in builder.events(for: events, distance: distance) { runner.submit(hookEvent) }
        builders[accessory.id] = builder
    }
}

extension NearbySessionEvent {
    /// The pipeline event this session event carries, if it is one.
    fileprivate var rangingEvent: RangingEvent? {
        if case .ranging(let event, _) = kind { return event }
        return nil
    }
}
