public import NIProtocol
public import Ranging

/// Settings of the accessory role (``AccessoryRoleSession``, ``AccessoryRoleManager``): what
/// the accessory announces and how it derives sessions (`AccessoryRoleProfile`),
/// and the ranging pipeline each phone's samples go through.
public struct AccessoryRoleConfiguration: Sendable {
    /// What the accessory announces (0x01) and how it derives sessions (0x0B).
    public var profile: AccessoryRoleProfile
    /// The pipeline settings: ``AccessorySessionConfiguration/filter`` (or `filters`), `zones`,
    /// `lostAfter`, `queueCapacity`, `timeScale`; the phone-role fields
    /// (dialect, planning, retry, timeouts) are not used.
    public var ranging: AccessorySessionConfiguration
    /// Like Qorvo's firmware: once a session stopped (0x0C, the kit, a link loss), a
    /// configureAndStart without a fresh initialize is answered 0x02 but starts nothing (Qorvo's
    /// missing `niq_reinit()`). Default `false`: every valid 0x0B starts a session.
    public var requiresInitializeAfterStop: Bool
    /// `true` (default): the session ends when the link does (a phone that comes back makes a
    /// new connection: GATT). `false`: it waits for the link to come back (in-memory links of
    /// simulations, which reconnect).
    public var endsOnDisconnection: Bool

    /// Creates a configuration.
    public init(profile: AccessoryRoleProfile, ranging: AccessorySessionConfiguration = AccessorySessionConfiguration(),
                requiresInitializeAfterStop: Bool = false, endsOnDisconnection: Bool = true) {
        self.profile = profile
        self.ranging = ranging
        self.requiresInitializeAfterStop = requiresInitializeAfterStop
        self.endsOnDisconnection = endsOnDisconnection
    }
}

/// What an ``AccessoryRoleSession`` does with a message before handling it: the seam for
/// simulated firmware faults (a hung, slow or broken accessory).
public enum AccessoryRoleIntercept: Sendable, Hashable {
    /// Handle it as usual.
    case handle
    /// Ignore it (nothing is recorded or sent).
    case ignore
    /// Send these bytes instead of handling it (e.g. malformed configuration data).
    case answer([UInt8])
}

/// Decides, per message, whether an ``AccessoryRoleSession`` handles it (fault injection; the
/// real accessory role has none).
public protocol AccessoryRoleInterceptor: Sendable {
    /// Called before a message with ID `id` is handled; may wait (a slow firmware).
    func intercept(_ id: NIMessageID) async -> AccessoryRoleIntercept
}

extension AccessorySessionConfiguration {
    /// A ranging pipeline with these settings: ``filters`` if given, else ``filter``'s
    /// standard parameters; ``zones``; ``lostAfter``.
    public func makePipeline() -> RangingPipeline<ConfiguredFilter> {
        if let filters {
            return RangingPipeline(distanceFilter: filters.distance, angleFilter: filters.angle, zones: zones, lostAfter: lostAfter)
        }
        return RangingPipeline(filter: filter, zones: zones, lostAfter: lostAfter)
    }
}
