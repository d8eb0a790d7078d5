/// Whether a ranging pipeline currently tracks its accessory.
public enum TrackingState: Sendable, Hashable {
    /// No usable sample yet (or after a reset).
    case waiting
    /// Usable samples arrive.
    case tracking
    /// Silent for longer than the pipeline's silence limit.
    case lost
}
