public import NearbyInteraction
public import NearbySupport

/// Where a run's events come from: live accessories (``LiveRanging``), phones ranging with this
/// host (``AccessoryRanging``) or the simulator (``DemoSource``). Feed ``events`` to a
/// ``RangingRun``; ``close()`` ends them.
public protocol RunSource: Sendable {
    /// The events to show (they end after ``close()``).
    var events: Mailbox<NearbySessionEvent> { get }
    /// Updates dropped from ``events`` so far (the consumer was too slow).
    var droppedUpdates: Int { get }
    /// Stops every session and closes the devices; ``events`` ends.
    func close() async
}

extension LiveRanging: RunSource {
    /// The sessions' events.
    public var events: Mailbox<NearbySessionEvent> { manager.events }
    /// Updates dropped from ``events`` so far.
    public var droppedUpdates: Int { manager.droppedUpdates }
}

extension AccessoryRanging: RunSource {
    /// The phones' events (one "accessory" per phone).
    public var events: Mailbox<NearbySessionEvent> { manager.events }
    /// Updates dropped from ``events`` so far.
    public var droppedUpdates: Int { manager.droppedUpdates }
}
