/// The ranging engine for one accessory: sample → filter → direction → zones → update + events.
///
/// Create one pipeline per accessory and feed it every ``RangeSample`` in time order with
/// ``process(_:)``: one ``RangingUpdate`` per sample, carrying the events that sample caused
/// (``RangingUpdate/events``: zone changes with names, `lost`, `found`). Call ``tick(now:)`` when
/// no sample arrives, so a silent accessory is still reported lost. Once warmed up (after its
/// first sample), a pipeline does not allocate: filters keep fixed-capacity buffers allocated at
/// init and events are stored inline (``RangingEvents``).
///
/// `Filter` is the filter type: a concrete filter (`RangingPipeline<KalmanFilter>`), or
/// ``ConfiguredFilter`` for a filter chosen by name at run time (see
/// ``init(filter:zones:lostAfter:)``). The distance uses one instance; azimuth and elevation use
/// copies wrapped in ``CircularFilter``.
///
/// Samples, gaps and errors:
/// - A sample is *usable* by the one rule of ``RangeSample/isUsable``: its status is valid and it
///   has a finite distance, azimuth or elevation. Non-finite values count as missing. Each
///   present value goes through its filter; a missing one keeps its last estimate.
/// - An unusable sample (error status, no values) updates nothing; while tracking it returns a
///   *held* update (last estimates, ``RangingUpdate/isHeld``, confidence decaying to 0 over
///   ``lostAfter``); otherwise an update without estimates whose ``RangingUpdate/state`` is
///   `waiting` or `lost`.
/// - NLoS: the flag and the FoM go to the filters (the Kalman filter widens its measurement noise,
///   the median-average weights by FoM) and lower the update's confidence.
/// - Timestamps that go backwards are treated as equal to the latest one (no time elapsed).
///
/// Lost and found (exactly what is emitted):
/// - When the time since the last usable sample exceeds ``lostAfter`` (checked on every sample
///   and on ``tick(now:)``): `lost(at: last usable + lostAfter, zone:)`, then the zone cleared
///   (`zoneChanged(from: zone, to: nil)`) at the same time if there was one. Updates carry no
///   estimates (state `lost`) until usable samples return.
/// - The first usable sample ever, and the first after `lost`: `found(at:)`; after `lost` every
///   filter is reset first, so no state from before the silence leaks into the new estimates.
///   The zone is then established from the new sample at once (`zoneChanged(from: nil, to:)`, no
///   dwell) and tracked with hysteresis and dwell from there on.
/// - A sample that arrives after a silence without a `tick` gets, in order: `lost`, the zone
///   cleared, `found`, the new zone.
public struct RangingPipeline<Filter: RangeFilter>: Sendable {
    /// The zones tracked.
    public let zones: ZoneMap
    /// Silence (seconds without a usable sample) after which the accessory is lost.
    public let lostAfter: Double
    /// The tracking state.
    public var state: TrackingState { trackingState }
    @usableFromInline var trackingState: TrackingState = .waiting

    @usableFromInline var distanceFilter: Filter
    @usableFromInline var azimuthFilter: CircularFilter<Filter>
    @usableFromInline var elevationFilter: CircularFilter<Filter>
    @usableFromInline var tracker: ZoneTracker
    @usableFromInline var velocityEstimator = VelocityEstimator()
    @usableFromInline var lastContact = 0.0
    @usableFromInline var expectedSince: Double?
    @usableFromInline var clock = -Double.infinity
    @usableFromInline var distance: Double?
    @usableFromInline var velocity: Double?
    @usableFromInline var azimuth: Double?
    @usableFromInline var elevation: Double?
    @usableFromInline var quality = 0.0
    @usableFromInline var directionQuality = 0.0

    /// Creates a pipeline from filter instances.
    /// - Parameters:
    ///   - distanceFilter: smooths the distance (parameters in metres).
    ///   - angleFilter: copied for azimuth and elevation (parameters in degrees).
    ///   - zones: the zone map (default ``ZoneMap/standard``).
    ///   - lostAfter: seconds of silence before `lost` (default 2 s; negative or NaN → 2 s,
    ///     `.infinity` never reports lost).
    public init(distanceFilter: Filter, angleFilter: Filter, zones: ZoneMap = .standard, lostAfter: Double = 2) {
        self.distanceFilter = distanceFilter
        self.azimuthFilter = CircularFilter(angleFilter)
        self.elevationFilter = CircularFilter(angleFilter)
        self.zones = zones
        self.tracker = ZoneTracker(map: zones)
        self.lostAfter = lostAfter >= 0 ? lostAfter : 2
    }

    /// The current zone, `nil` if none is established.
    public var currentZone: ZoneRef? { tracker.currentRef }

    /// Processes one sample and returns its update, with the events it caused in
    /// ``RangingUpdate/events`` (in order). Every sample gets exactly one update; when the
    /// accessory is not tracked (no usable sample yet, or lost) and the sample is unusable, the
    /// update's ``RangingUpdate/state`` says so and it carries no estimates.
    @inlinable
    public mutating func process(_ sample: RangeSample) -> RangingUpdate {
        var t = sample.timestamp
        if !t.isFinite { t = clock.isFinite ? clock : 0 }
        if t < clock { t = clock }
        clock = t
        var events = RangingEvents()
        checkSilence(now: t, into: &events)

        let measuredDistance = sample.usableDistance
        let measuredAzimuth = sample.usableAzimuth
        let measuredElevation = sample.usableElevation
        guard measuredDistance != nil || measuredAzimuth != nil || measuredElevation != nil else {
            guard state == .tracking else {
                return RangingUpdate(
                    timestamp: t, distance: nil, velocity: nil, direction: nil, confidence: 0, zone: nil, isHeld: false,
                    state: state, sample: sample, events: events)
            }
            let age = t - lastContact
            let decay = lostAfter > 0 ? max(0, 1 - age / lostAfter) : 0
            return makeUpdate(sample, at: t, held: true, confidence: quality * decay, events: events)
        }

        if state != .tracking {
            if state == .lost { resetEstimates() }
            trackingState = .tracking
            expectedSince = nil
            events.append(.found(at: t))
        }
        lastContact = t
        let weight = sample.figureOfMerit.map { min(max(Double($0) * 0.01, 0.01), 1) } ?? 1
        let nlos = sample.isNonLineOfSight ?? false
        if let measuredDistance {
            let smoothed = distanceFilter.update(
                FilterInput(value: measuredDistance, time: t, weight: weight, isNonLineOfSight: nlos))
            distance = smoothed
            if let rate = distanceFilter.rate {
                velocity = rate
            } else {
                velocity = velocityEstimator.update(smoothed, at: t)
            }
            if let change = tracker.update(distance: smoothed, at: t) { events.append(change) }
        }
        if let measuredAzimuth {
            azimuth = azimuthFilter.update(
                FilterInput(value: measuredAzimuth, time: t, weight: weight, isNonLineOfSight: nlos))
            directionQuality = weight * (nlos ? 0.5 : 1)
        }
        if let measuredElevation {
            elevation = elevationFilter.update(
                FilterInput(value: measuredElevation, time: t, weight: weight, isNonLineOfSight: nlos))
        }
        quality = weight * (nlos ? 0.5 : 1)
        return makeUpdate(sample, at: t, held: false, confidence: quality, events: events)
    }

    /// Checks the silence limit at `now` (seconds, the samples' clock) without a sample: returns
    /// `lost` (and the zone cleared) once the limit has passed, else nothing. Call it
    /// periodically when samples may stop.
    @specialized(where Filter == ConfiguredFilter)
    public mutating func tick(now: Double) -> RangingEvents {
        var events = RangingEvents()
        guard now.isFinite else { return events }
        checkSilence(now: now, into: &events)
        return events
    }

    /// Starts counting silence at `time` (seconds, the samples' clock) without a sample: from
    /// then on, ``lostAfter`` without a usable sample is `lost`, reported once. For a session that
    /// (re)starts ranging: while waiting for the first sample (or lost) the accessory is expected
    /// from `time`; while tracking, silence counts from `time` at the earliest.
    public mutating func expectSamples(since time: Double) {
        guard time.isFinite else { return }
        if state == .tracking {
            lastContact = max(lastContact, time)
        } else {
            expectedSince = time
        }
    }

    /// Returns to the initial state (waiting, no zone, filters reset) without reporting events.
    public mutating func reset() {
        resetEstimates()
        tracker.reset()
        trackingState = .waiting
        clock = -Double.infinity
        lastContact = 0
        expectedSince = nil
    }

    @inlinable @inline(__always)
    mutating func checkSilence(now: Double, into events: inout RangingEvents) {
        if state != .tracking, let since = expectedSince, now - since > lostAfter {
            trackingState = .lost
            expectedSince = nil
            events.append(.lost(at: since + lostAfter, zone: nil))
            return
        }
        guard state == .tracking, now - lastContact > lostAfter else { return }
        trackingState = .lost
        let at = lastContact + lostAfter
        events.append(.lost(at: at, zone: tracker.currentRef))
        if let cleared = tracker.clear(at: at) { events.append(cleared) }
    }

    @usableFromInline
    mutating func resetEstimates() {
        distanceFilter.reset()
        azimuthFilter.reset()
        elevationFilter.reset()
        velocityEstimator.reset()
        distance = nil
        velocity = nil
        azimuth = nil
        elevation = nil
        quality = 0
        directionQuality = 0
    }

    @inlinable @inline(__always)
    func makeUpdate(
        _ sample: RangeSample, at t: Double, held: Bool, confidence: Double, events: RangingEvents
    ) -> RangingUpdate {
        RangingUpdate(
            timestamp: t,
            distance: distance,
            velocity: distance == nil ? nil : velocity,
            direction: azimuth.map {
                Direction(
                    azimuth: $0, elevation: elevation, confidence: directionQuality,
                    uncertainty: azimuthFilter.variance.map { $0.squareRoot() })
            },
            confidence: confidence,
            zone: tracker.currentRef,
            isHeld: held,
            state: state,
            sample: sample,
            events: events)
    }
}

extension RangingPipeline where Filter == ConfiguredFilter {
    /// Creates a pipeline whose filter is chosen by name (``FilterSpec``), with the standard
    /// parameters for metres (distance) and degrees (angles).
    /// - Parameters:
    ///   - filter: the filter chain (default ``FilterSpec/default``).
    ///   - zones: the zone map (default ``ZoneMap/standard``).
    ///   - lostAfter: seconds of silence before `lost` (default 2 s).
    public init(filter: FilterSpec = .default, zones: ZoneMap = .standard, lostAfter: Double = 2) {
        self.init(
            distanceFilter: ConfiguredFilter(filter, domain: .distance),
            angleFilter: ConfiguredFilter(filter, domain: .angle),
            zones: zones, lostAfter: lostAfter)
    }
}
