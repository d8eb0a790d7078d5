import RealModule

/// One accessory of the house heard by several hosts, fused (specs/house.md):
///
/// - **Position**: a 2-D constant-velocity Kalman track (`PlaneKalman`) fed with each host's
///   range (σ from ``FusionParameters/rangeNoise`` growing with range and with a low figure of
///   merit; ``FusionParameters/nlosRangeNoise`` when flagged NLoS) and, where the host has a
///   heading, its azimuth turned by that heading (σ from the figure of merit); each report at
///   its own time, an older one with its σ widened by how far the accessory can have moved
///   since. Gated and Huber-weighted, so an outlier or an NLoS burst barely moves it; started
///   (and restarted after a jump or a silence) by a robust multilateration of the latest
///   report of every host.
/// - **Floor**: that of the nearest hearing host, changing when a host of another floor is
///   clearly nearer.
/// - **Room**: the polygon containing the position, with hysteresis (`RoomTracker`).
/// - **Presence**: `home` while a host tracks it; `not_home` once no host has heard it for
///   ``FusionParameters/awayAfter`` seconds (from the hosts' `last_seen`), stamped at that
///   moment.
public struct AccessoryFusion: Sendable {
    /// The house.
    public let plan: HousePlan
    /// How it fuses.
    public let parameters: FusionParameters
    /// The fused state now.
    public private(set) var current: FusedPosition

    private struct HostState: Sendable {
        var report: HostReport
        var online = true
        /// Seconds at which the host went offline.
        var offlineSince: Double?
        var rejections = 0
        var lastUsed: Double?
    }

    private var hosts: [String: HostState] = [:]
    private var track: PlaneKalman?
    private var lastPositionUpdate: Double?
    private var rejectionsInARow = 0
    private var rooms = RoomTracker()

    /// Counts, for diagnostics.
    public private(set) var statistics = Statistics()

    /// Counts of what the fusion did.
    public struct Statistics: Sendable, Hashable {
        /// Ranges used.
        public var ranges = 0
        /// Azimuths used.
        public var azimuths = 0
        /// Observations rejected by the gate.
        public var rejected = 0
        /// Reports too old to use for the position.
        public var stale = 0
        /// Track starts and restarts.
        public var starts = 0
    }

    /// A fusion for one accessory of `plan`.
    public init(plan: HousePlan, parameters: FusionParameters = FusionParameters()) {
        self.plan = plan
        self.parameters = parameters
        current = FusedPosition(time: 0, point: nil, velocity: nil, floor: nil, room: nil, accuracy: nil, hosts: [], presence: .notHome)
    }

    /// The hosts whose latest report says they track the accessory.
    public var trackingHosts: [String] {
        hosts.filter { $0.value.online && $0.value.report.tracking }.map(\.key).sorted()
    }

    /// Takes one host's report (a state; hosts not in the plan only count for presence).
    /// - Parameters:
    ///   - report: what the host says about the accessory.
    ///   - offlineSince: when the host went offline if it is offline now (a retained
    ///     state of a host that is gone), `nil` while it is online.
    /// - Returns: what changed in ``current``.
    public mutating func apply(_ report: HostReport, offlineSince: Double? = nil) -> FusionChange {
        var change = FusionChange()
        var state = hosts[report.host] ?? HostState(report: report)
        state.report = report
        state.online = offlineSince == nil
        state.offlineSince = offlineSince
        hosts[report.host] = state
        guard offlineSince == nil else { return change }
        if report.tracking, current.presence == .notHome {
            current.presence = .home
            current.time = max(current.time, report.time)
            change.presence = true
        }
        if report.tracking, report.usableRange != nil, plan.host(named: report.host) != nil {
            locate(with: report, change: &change)
        }
        return change
    }

    /// A host went offline at `time` (its status): its reports no longer say it hears.
    public mutating func hostOffline(_ host: String, at time: Double) {
        guard var state = hosts[host] else { return }
        state.online = false
        state.offlineSince = state.offlineSince ?? time
        hosts[host] = state
    }

    /// Time passes: `not_home` once no host has heard the accessory for
    /// ``FusionParameters/awayAfter`` seconds at `now` (seconds on the reports' clock).
    public mutating func tick(now: Double) -> FusionChange {
        var change = FusionChange()
        guard current.presence == .home, let heard = lastHeard(now: now), now - heard >= parameters.awayAfter else { return change }
        current.presence = .notHome
        current.time = heard + parameters.awayAfter
        current.point = nil
        current.velocity = nil
        current.accuracy = nil
        current.hosts = []
        if current.room != nil {
            change.room = true
            change.previousRoom = current.room
        }
        current.room = nil
        current.floor = nil
        track = nil
        rooms.reset()
        change.presence = true
        return change
    }

    /// When a host last heard the accessory: `now` while one tracks it, else the latest
    /// `last_seen` (or state time) of any host; `nil` if none ever did.
    public func lastHeard(now: Double) -> Double? {
        var latest: Double?
        for state in hosts.values {
            if state.online, state.report.tracking { return now }
            var heard = state.report.tracking ? state.report.time : (state.report.lastSeen ?? state.report.time)
            if let offline = state.offlineSince { heard = min(heard, offline) }
            if !state.report.tracking, state.report.lastSeen == nil { continue }
            latest = max(latest ?? heard, heard)
        }
        return latest
    }

    // MARK: Position

    private mutating func locate(with report: HostReport, change: inout FusionChange) {
        guard let host = plan.host(named: report.host) else { return }
        if current.floor == nil || shouldChangeFloor(to: host.floor, report: report) {
            if current.floor != nil, current.floor != host.floor { track = nil }
            current.floor = host.floor
        }
        guard host.floor == current.floor else { return }
        if let last = lastPositionUpdate, report.time - last > parameters.restartAfter { track = nil }
        if track == nil || rejectionsInARow >= parameters.restartRejections {
            guard start(at: report.time) else { return }
            change.restarted = true
            lastPositionUpdate = report.time
            hosts[report.host]?.lastUsed = report.time
            finish(&change, at: report.time)
            return
        }
        guard var kalman = track else { return }
        let age = kalman.time - report.time
        guard age <= parameters.maximumAge else {
            statistics.stale += 1
            return
        }
        kalman.predict(to: report.time, acceleration: parameters.acceleration, decay: parameters.velocityDecay)
        // A report older than the track counts with the distance the accessory can have moved since.
        let slack = max(age, 0) * min(kalman.speed + 0.5, parameters.maximumSpeed)
        var used = false
        if let range = report.usableRange {
            var sigma = rangeSigma(range, report: report)
            let p = kalman.position - host.position
            let dz = parameters.tagHeight - host.height
            let predicted = max((p.x * p.x + p.y * p.y + dz * dz).squareRoot(), 1e-3)
            // NLoS only ever lengthens a range: one much longer than expected is treated as NLoS
            // even when the kit did not flag it.
            let expected = (sigma * sigma + kalman.worstPositionVariance).squareRoot()
            if range - predicted > parameters.longRange * expected { sigma = max(sigma, parameters.nlosRangeNoise * fomFactor(report)) }
            let h = SIMD4(p.x / predicted, p.y / predicted, 0, 0)
            let variance = sigma * sigma + slack * slack
            switch kalman.update(
                predicted: predicted, jacobian: h, measurement: range, variance: variance, gate: parameters.gate, huber: parameters.huber)
            {
            case .accepted:
                statistics.ranges += 1
                used = true
            case .rejected:
                statistics.rejected += 1
            }
        }
        if let azimuth = report.azimuth, let heading = host.heading, let fom = report.figureOfMerit, fom >= parameters.minimumAzimuthFigureOfMerit {
            let bearing = PlaneAngles.wrap(heading + azimuth)
            var sigma = parameters.azimuthNoise * 100 / Double(max(fom, 1))
            if report.nonLineOfSight { sigma *= 3 }
            let d = kalman.position - host.position
            let r2 = max(d.x * d.x + d.y * d.y, 0.04)
            let radians = PlaneAngles.radians(sigma)
            let slackAngle = slack * slack / r2
            let predicted = host.position.bearing(to: kalman.position)
            let innovation = PlaneAngles.radians(PlaneAngles.wrap(bearing - predicted))
            let h = SIMD4(d.y / r2, -d.x / r2, 0, 0)
            switch kalman.update(
                predicted: 0, jacobian: h, measurement: 0, variance: radians * radians + slackAngle, gate: parameters.gate,
                huber: parameters.huber, innovation: innovation)
            {
            case .accepted:
                statistics.azimuths += 1
                used = true
            case .rejected:
                statistics.rejected += 1
            }
        }
        track = kalman
        if used {
            rejectionsInARow = 0
            hosts[report.host]?.lastUsed = report.time
            lastPositionUpdate = max(lastPositionUpdate ?? report.time, report.time)
            finish(&change, at: kalman.time)
        } else {
            rejectionsInARow += 1
        }
    }

    /// σ of a range: ``FusionParameters/rangeNoise`` growing with range, twice that for a
    /// smoothed range, ``FusionParameters/nlosRangeNoise`` when flagged NLoS; times
    /// ``fomFactor(_:)``.
    private func rangeSigma(_ range: Double, report: HostReport) -> Double {
        var sigma = parameters.rangeNoise + parameters.rangeNoisePerMetre * range
        if report.range == nil { sigma *= 2 }
        if report.nonLineOfSight { sigma = max(sigma, parameters.nlosRangeNoise) }
        return sigma * fomFactor(report)
    }

    /// 100 / FoM, between 1 and 4 (1 without a FoM): a weak signal (FoM falls with signal
    /// quality and in NLoS) counts less.
    private func fomFactor(_ report: HostReport) -> Double {
        guard let fom = report.figureOfMerit else { return 1 }
        return min(4, max(1, 100 / Double(max(fom, 1))))
    }

    /// Starts the track from the latest report of every host on the floor (those within
    /// ``FusionParameters/maximumAge`` of `time`).
    private mutating func start(at time: Double) -> Bool {
        guard let floor = current.floor else { return false }
        var problem = Multilateration()
        problem.huber = parameters.huber
        for (name, state) in hosts where state.online && state.report.tracking {
            guard let host = plan.host(named: name), host.floor == floor, abs(time - state.report.time) <= parameters.maximumAge else { continue }
            let report = state.report
            guard let range = report.usableRange else { continue }
            let slack = abs(time - report.time) * parameters.maximumSpeed / 2
            let sigma = (rangeSigma(range, report: report) * rangeSigma(range, report: report) + slack * slack).squareRoot()
            problem.ranges.append(.init(from: host.position, dz: parameters.tagHeight - host.height, range: range, sigma: sigma))
            if let azimuth = report.azimuth, let heading = host.heading, let fom = report.figureOfMerit,
                fom >= parameters.minimumAzimuthFigureOfMerit
            {
                let sigma = parameters.azimuthNoise * 100 / Double(max(fom, 1)) * (report.nonLineOfSight ? 3 : 1)
                problem.bearings.append(.init(from: host.position, bearing: PlaneAngles.wrap(heading + azimuth), sigma: sigma))
            }
        }
        let rooms = plan.rooms(onFloor: floor)
        let starts = [track?.position, current.point].compactMap { $0 }
        guard
            let solution = problem.solve(starts: starts, penalty: { point in
                rooms.isEmpty || rooms.contains(where: { $0.polygon.depth(point) > -0.5 }) ? 0 : 4
            })
        else { return false }
        statistics.starts += 1
        track = PlaneKalman(
            position: solution.point, xx: solution.xx + 0.01, xy: solution.xy, yy: solution.yy + 0.01, velocityVariance: 0.5,
            time: time)
        rejectionsInARow = 0
        return true
    }

    private func shouldChangeFloor(to floor: Int, report: HostReport) -> Bool {
        guard let currentFloor = current.floor, floor != currentFloor, let range = report.usableRange else { return current.floor == nil }
        // Another floor's host is clearly nearer than every host of this floor that hears it.
        let nearestHere = hosts.compactMap { name, state -> Double? in
            guard state.online, state.report.tracking, plan.host(named: name)?.floor == currentFloor,
                abs(report.time - state.report.time) <= parameters.maximumAge
            else { return nil }
            return state.report.usableRange
        }.min()
        return nearestHere.map { range + 1 < $0 } ?? true
    }

    private mutating func finish(_ change: inout FusionChange, at time: Double) {
        guard let kalman = track, let floor = current.floor else { return }
        current.time = max(current.time, time)
        current.point = kalman.position
        current.velocity = kalman.velocity
        current.accuracy = 2 * kalman.worstPositionVariance.squareRoot()
        current.hosts = hosts.filter { ($0.value.lastUsed ?? -Double.infinity) >= time - parameters.maximumAge }.map(\.key).sorted()
        change.position = true
        _ = rooms.update(kalman.position, floor: floor, at: time, plan: plan, margin: parameters.roomMargin, dwell: parameters.roomDwell)
        if rooms.room != current.room {
            change.room = true
            change.previousRoom = current.room
            current.room = rooms.room
        }
    }
}
