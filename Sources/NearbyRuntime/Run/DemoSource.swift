public import NIProtocol
public import NearbyInteraction
public import NearbySupport

/// A run on the built-in simulator (`nearby demo`): the phone role with virtual accessories
/// (``DemoRanging``) or the accessory role with virtual phones (``AccessoryRoleDemo``). Feed
/// ``RunSource/events`` to a ``RangingRun``.
public protocol DemoSource: RunSource {
    /// What the run's events name, in order (accessories, or phones in the accessory role).
    var accessories: [AccessoryIdentity] { get }
    /// The scenario's length, seconds of scenario time.
    var duration: Double { get }
    /// Starts the sessions; a failure is reported through `report`.
    func startSessions(report: (String) -> Void) async
    /// `true` once the scenario reached `length` seconds or every session ended.
    func isOver(after length: Double) async -> Bool
}

extension DemoRanging: DemoSource {
    /// The sessions' events.
    public var events: Mailbox<NearbySessionEvent> { manager.events }
    /// Updates dropped from ``events`` so far.
    public var droppedUpdates: Int { manager.droppedUpdates }
}

extension AccessoryRoleDemo: DemoSource {
    /// The phones, as the accessory names them.
    public var accessories: [AccessoryIdentity] { phones }
    /// The accessory role's events (one "accessory" per phone).
    public var events: Mailbox<NearbySessionEvent> { manager.events }
    /// Updates dropped from ``events`` so far.
    public var droppedUpdates: Int { manager.droppedUpdates }
}
