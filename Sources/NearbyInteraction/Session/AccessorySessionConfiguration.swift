public import Ranging
public import NIProtocol

/// Settings of one ``AccessorySession``: dialect, planning, timeouts, recovery, and the ranging
/// pipeline (filter, zones). Shared by every accessory of a ``NearbySessionManager`` unless
/// given per accessory.
public struct AccessorySessionConfiguration: Sendable {
    /// Which initialize the host sends: `.apple` 0x0A (default) or `.android` 0xA5.
    public var dialect: NIDialect
    /// How sessions are planned.
    public var planning: SessionPlanningOptions
    /// Timeout detection and recovery.
    public var retry: RetryPolicy
    /// Longest wait for the configuration data (0x01) after initialize. Default 3 s.
    public var configurationTimeout: Duration
    /// Longest wait for accessoryUwbDidStart (0x02) after configureAndStart. Default 3 s.
    public var startTimeout: Duration
    /// Longest wait, when starting over, for the accessoryUwbDidStop (0x03) that answers stop
    /// (0x0C) before initialize is sent. Default 2 s.
    public var stopTimeout: Duration
    /// Timeout of one data-channel reconnection attempt. Default 10 s.
    public var reconnectTimeout: Duration
    /// The smoothing filter. Default `FilterSpec.default` (`imm`).
    public var filter: FilterSpec
    /// Filters with explicit parameters (distance, angles), e.g. from the configuration file;
    /// when set they replace ``filter`` (which then only names them). Default `nil`: ``filter``
    /// with its standard parameters.
    public var filters: (distance: ConfiguredFilter, angle: ConfiguredFilter)?
    /// The zones. Default `ZoneMap.standard` (1.5 m, 3 m).
    public var zones: ZoneMap
    /// Silence, seconds of the samples' clock, before the pipeline reports `lost` — and the
    /// session starts a recovery (``RetryPolicy``). Default 2.
    public var lostAfter: Double
    /// Unused since silence is timed by the session's `RangingLane` (one timer for the moment
    /// `lost` is due, nothing periodic); kept so existing code compiles. Default 100 ms.
    public var tickInterval: Duration
    /// Bound of the session's queues: its inbox (messages, link and kit events), and updates
    /// waiting on its event stream. Beyond it the oldest are dropped and counted
    /// (``NearbySessionEvent/Kind/dropped(_:)``). Default 1024 (10 s at 100 Hz).
    public var queueCapacity: Int
    /// Multiplies the time the ranging pipeline sees, for simulations that run faster than real
    /// time (`nearby demo --speed 4` passes 4, so zone dwell and `lost` keep their scenario
    /// meaning). Timeouts and backoff stay in real time. Default 1.
    public var timeScale: Double
    /// The instant (MonotonicTime seconds) around which ``timeScale`` scales time; `nil`
    /// (default): the session's creation. Sessions of one run that share it (the run's start)
    /// keep times that agree with each other and with the run's wall clock at any speed
    /// (`nearby demo --house`, where several hosts' times are fused).
    public var timeEpoch: Double?
    /// "Is the accessory still near?" while its data channel is down: `true` if it was seen
    /// advertising recently. `nil` (default): assume it may be, and try to reconnect. When it
    /// answers `false`, a reconnection try is skipped (it still counts as a try).
    public var advertisingSeenRecently: (@Sendable () async -> Bool)?

    /// Creates a configuration; every parameter has the default documented on its property.
    public init(
        dialect: NIDialect = .apple,
        planning: SessionPlanningOptions = SessionPlanningOptions(),
        retry: RetryPolicy = .default,
        configurationTimeout: Duration = .seconds(3),
        startTimeout: Duration = .seconds(3),
        stopTimeout: Duration = .seconds(2),
        reconnectTimeout: Duration = .seconds(10),
        filter: FilterSpec = .default,
        filters: (distance: ConfiguredFilter, angle: ConfiguredFilter)? = nil,
        zones: ZoneMap = .standard,
        lostAfter: Double = 2,
        tickInterval: Duration = .milliseconds(100),
        queueCapacity: Int = 1024,
        timeScale: Double = 1,
        advertisingSeenRecently: (@Sendable () async -> Bool)? = nil
    ) {
        self.dialect = dialect
        self.planning = planning
        self.retry = retry
        self.configurationTimeout = configurationTimeout
        self.startTimeout = startTimeout
        self.stopTimeout = stopTimeout
        self.reconnectTimeout = reconnectTimeout
        self.filter = filter
        self.filters = filters
        self.zones = zones
        self.lostAfter = lostAfter
        self.tickInterval = tickInterval
        self.queueCapacity = queueCapacity
        self.timeScale = timeScale
        self.advertisingSeenRecently = advertisingSeenRecently
    }
}
