public import NIProtocol
public import NearbyInteraction
import Synchronization

/// The live status of every accessory of a run, readable from any task at any time (a web
/// view's snapshot, MQTT's retained state) while the run updates it.
public final class StatusBoard: Sendable {
    private struct State {
        var order: [String] = []
        var statuses: [String: AccessoryStatus] = [:]
    }

    private let state = Mutex(State())

    /// An empty board.
    public init() {}

    /// Announces an accessory (its status exists from now on, in this order).
    public func add(_ identity: AccessoryIdentity) {
        state.withLock { state in
            guard state.statuses[identity.id] == nil else { return }
            state.order.append(identity.id)
            state.statuses[identity.id] = AccessoryStatus(identity: identity)
        }
    }

    /// Applies an event; returns the accessory's status after it (`nil` for dev-kit events).
    @discardableResult
    public func apply(_ event: NearbySessionEvent) -> AccessoryStatus? {
        guard let identity = event.accessory else { return nil }
        return state.withLock { state in
            // One hash of the ID per event (this runs for every update).
            if let index = state.statuses.index(forKey: identity.id) {
                state.statuses.values[index].apply(event)
                return state.statuses.values[index]
            }
            var status = AccessoryStatus(identity: identity)
            status.apply(event)
            state.order.append(identity.id)
            state.statuses[identity.id] = status
            return status
        }
    }

    /// The status of accessory `id`.
    public func status(of id: String) -> AccessoryStatus? { state.withLock { $0.statuses[id] } }

    /// Every accessory's status, in the order they were announced.
    public var snapshot: [AccessoryStatus] {
        state.withLock { state in state.order.compactMap { state.statuses[$0] } }
    }
}
