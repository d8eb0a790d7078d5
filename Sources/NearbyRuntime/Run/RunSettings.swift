public import Hooks
public import Logging
public import NIProtocol
public import NearbyConfig
public import NearbyInteraction
public import Ranging

/// Everything a run needs from the configuration (file overridden by flags): the sessions'
/// configuration (dialect, key order, filter, zones, lost-after, retry policy) and the hooks.
public struct RunSettings: Sendable {
    /// The effective configuration it came from.
    public var configuration: NearbyConfiguration
    /// What every accessory session gets.
    public var session: AccessorySessionConfiguration
    /// The zone-trigger hooks (validated against the zones).
    public var hooks: [HookDefinition]

    /// The zones.
    public var zones: ZoneMap { session.zones }

    /// Settings from a configuration.
    /// - Parameters:
    ///   - configuration: the effective configuration (file overridden by flags).
    ///   - dialect: the NI dialect (0x0A or 0xA5 initialize).
    ///   - keyByteOrder: how VENDOR_ID and the STS IV reach UCI.
    ///   - timeScale: simulated seconds per real second (`nearby demo --speed`).
    /// - Throws: ``RunSettingsError`` naming the section: invalid zones, retry policy or hooks.
    public init(
        configuration: NearbyConfiguration, dialect: NIDialect = .apple, keyByteOrder: UWBKeyByteOrder = .vendorFirst,
        timeScale: Double = 1
    ) throws(RunSettingsError) {
        let zones: ZoneMap
        do {
            zones = try configuration.zoneMap()
        } catch {
            throw RunSettingsError(section: "zones", description: "\(error)")
        }
        do {
            try configuration.validateHooks()
        } catch {
            throw RunSettingsError(section: "hook", description: "\(error)")
        }
        var policy = RetryPolicy.default
        let retry = configuration.retry
        if let attempts = retry.maxAttempts { policy.maxAttempts = attempts }
        if let initial = retry.initialBackoff { policy.initialBackoff = .milliseconds(Int64(initial * 1000)) }
        if let maximum = retry.maxBackoff { policy.maxBackoff = .milliseconds(Int64(maximum * 1000)) }
        do {
            try policy.validate()
        } catch {
            throw RunSettingsError(section: "retry", description: "\(error)")
        }
        self.configuration = configuration
        self.hooks = configuration.effectiveHooks
        self.session = AccessorySessionConfiguration(
            dialect: dialect, planning: SessionPlanningOptions(keyByteOrder: keyByteOrder), retry: policy,
            filter: configuration.filter.effectiveSpec,
            filters: (configuration.filter.distanceFilter(), configuration.filter.angleFilter()),
            zones: zones, lostAfter: configuration.zones.effectiveLostAfter, timeScale: timeScale)
    }

    /// A hook runner for ``hooks`` (`nil` when there are none).
    public func hookRunner(logger: Logger = Logger(label: "nearby.hooks")) -> HookRunner? {
        hooks.isEmpty ? nil : HookRunner(hooks: hooks, logger: logger)
    }

    /// A ranging pipeline with these settings (a replay's).
    public func makePipeline() -> RangingPipeline<ConfiguredFilter> {
        if let filters = session.filters {
            return RangingPipeline(distanceFilter: filters.distance, angleFilter: filters.angle, zones: zones, lostAfter: session.lostAfter)
        }
        return RangingPipeline(filter: session.filter, zones: zones, lostAfter: session.lostAfter)
    }
}

/// Settings that cannot run: which section and why.
public struct RunSettingsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `zones`, `retry` or `hook`.
    public var section: String
    /// What is wrong and how to fix it.
    public var description: String
}
