import NearbyBase
public import NIProtocol
public import NearbyInteraction
public import Ranging

/// One accessory as a run sees it now: the latest smoothed values, its zone, its session, and
/// the counts the summary reports. ``StatusBoard`` keeps one per accessory; every output gets
/// the status after each event, so a screen, MQTT or a web view needs no tracking of its own.
public struct AccessoryStatus: Sendable, Hashable {
    /// Who.
    public var identity: AccessoryIdentity
    /// The session's state (`initializing`, `ranging`, `retrying`, `stopped`, ...; `idle` before
    /// the session reported one).
    public var sessionState: String = "idle"
    /// The session state in words (`waiting 0.25 s before try 1`, `failed: ...`).
    public var sessionDetail: String = "idle"
    /// The tracking state of the last update.
    public var tracking: TrackingState = .waiting
    /// Smoothed distance, metres; `nil` while not tracked.
    public var distance: Double?
    /// The last usable measured distance, metres (raw, before smoothing).
    public var rawDistance: Double?
    /// Rate of change of the distance, m/s (positive = moving away).
    public var velocity: Double?
    /// Smoothed azimuth, degrees (positive = right), `nil` if unknown.
    public var azimuth: Double?
    /// Smoothed elevation, degrees (positive = up), `nil` if unknown.
    public var elevation: Double?
    /// Confidence of the last update, 0 ... 1.
    public var confidence: Double = 0
    /// The current zone.
    public var zone: ZoneRef?
    /// `true` if the last update held old values (an unusable sample while tracking).
    public var isHeld = false
    /// Figure of merit of the last usable sample, 0 ... 100.
    public var figureOfMerit: UInt8?
    /// NLoS flag of the last usable sample.
    public var isNonLineOfSight: Bool?
    /// Usable samples per second (smoothed over about ten samples), 0 before two arrived.
    public var updateRate: Double = 0
    /// Time of the last update, on the events' clock.
    public var lastUpdate: Double?

    /// Updates seen (one per range sample).
    public var updates = 0
    /// Updates whose sample had a usable distance (`RangeSample.usableDistance`).
    public var measured = 0
    /// Zone changes into a zone (the first zone included).
    public var zoneChanges = 0
    /// Recovery tries.
    public var retries = 0
    /// Sessions planned (configureAndStart sent).
    public var configurations = 0
    /// The last 0x01 → 0x0B latency.
    public var latency: SessionLatency?
    /// The last distance known (kept when the accessory is lost, for the summary).
    public var lastDistance: Double?
    /// The last error reported.
    public var lastError: String?
    /// Range samples the session dropped because it fell behind.
    public var droppedSamples = 0
    /// Range samples discarded because their UWB session had stopped (a retry), in all.
    public var discardedSamples = 0

    private var meanInterval: Double?
    private var lastUsableTime: Double?

    /// A status with nothing known yet.
    public init(identity: AccessoryIdentity) {
        self.identity = identity
    }

    /// Applies one event of this accessory.
    public mutating func apply(_ event: NearbySessionEvent) {
        switch event.kind {
        case .update(let update): apply(update)
        case .ranging(let ranging): apply(ranging)
        case .state(let state):
            sessionState = state.name
            sessionDetail = state.description
        case .configured(_, let latency):
            configurations += 1
            self.latency = latency
        case .retry:
            retries += 1
        case .error(let error):
            lastError = error.description
        case .dropped(let report) where report.queue == .sessionInbox:
            droppedSamples = report.total
        case .dropped(let report) where report.queue == .stoppedSession:
            discardedSamples = report.total
        default:
            break
        }
    }

    private mutating func apply(_ update: RangingUpdate) {
        updates += 1
        for event in update.events { apply(event) }
        tracking = update.state
        distance = update.distance
        velocity = update.velocity
        azimuth = update.direction?.azimuth
        elevation = update.direction?.elevation
        confidence = update.confidence
        zone = update.zone
        isHeld = update.isHeld
        lastUpdate = update.timestamp
        if let distance = update.distance { lastDistance = distance }
        let sample = update.sample
        if let raw = sample.usableDistance {
            measured += 1
            rawDistance = raw
        }
        if sample.isUsable {
            figureOfMerit = sample.figureOfMerit
            isNonLineOfSight = sample.isNonLineOfSight
            if let last = lastUsableTime, update.timestamp > last {
                let interval = update.timestamp - last
                let mean = meanInterval.map { $0 + (interval - $0) * 0.2 } ?? interval
                meanInterval = mean
                updateRate = mean > 0 ? 1 / mean : 0
            }
            lastUsableTime = update.timestamp
        }
    }

    private mutating func apply(_ event: RangingEvent) {
        switch event {
        case .zoneChanged(_, let to, _):
            zone = to
            if to != nil { zoneChanges += 1 }
        case .lost:
            tracking = .lost
            distance = nil
            velocity = nil
            azimuth = nil
            elevation = nil
            confidence = 0
            updateRate = 0
            meanInterval = nil
            lastUsableTime = nil
        case .found:
            tracking = .tracking
        }
    }

    /// `Keys: 298 updates (296 measured), 11 zone changes, 0 retries, last 6.98 m, stopped;
    /// 0x01 -> 0x0B: 0.21 ms own work ...` (the summary line).
    public var summaryLine: String {
        var line = "\(identity.displayName): \(updates) updates (\(measured) measured), \(zoneChanges) zone change\(zoneChanges == 1 ? "" : "s"), "
        line += "\(retries) retr\(retries == 1 ? "y" : "ies"), "
        line += lastDistance.map { "last \(DecimalText.fixed($0, 2)) m, " } ?? ""
        line += sessionDetail
        if droppedSamples > 0 { line += ", \(droppedSamples) samples dropped" }
        if discardedSamples > 0 { line += ", \(discardedSamples) samples of a stopped session discarded" }
        if let latency { line += "; 0x01 -> 0x0B: \(latency)" }
        return line
    }
}
