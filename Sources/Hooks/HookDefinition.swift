/// One zone-trigger hook: which events it runs on and the command it runs.
///
/// The command is an argv array run without a shell (`run[0]` is the executable: a path if it
/// contains `/`, else looked up in `PATH`). Event data reaches it only through environment
/// variables (``HookEvent/environment``), never through its arguments, so accessory names cannot
/// inject anything. A shell runs only if the user writes one (`["/bin/sh", "-c", "..."]`).
///
/// Matching (``matches(_:)``): the trigger must equal the event's kind; `zone` (for `enter` and
/// `exit`) must be `nil` (any zone) or the event's zone name; `accessory` must be `nil` / `*`
/// (any accessory) or equal the event's accessory name or id.
public struct HookDefinition: Sendable, Hashable, CustomStringConvertible {
    /// The default timeout: 10 s.
    public static let defaultTimeout = 10.0
    /// The largest accepted timeout and cooldown: one day, in seconds.
    public static let maximumSeconds = 86_400.0

    /// A name for logs and outcomes; defaults to a summary such as `enter near`.
    public var name: String
    /// The event kind the hook runs on.
    public var trigger: HookTrigger
    /// The zone name for `enter` / `exit`; `nil` = any zone. Always `nil` for `lost` / `found`.
    public var zone: String?
    /// The accessory name or id; `nil` = any accessory (`*`).
    public var accessory: String?
    /// The argv to run; non-empty, `run[0]` non-empty.
    public var run: [String]
    /// Seconds the command may run before it is sent SIGTERM (then SIGKILL after the runner's
    /// grace period); > 0.
    public var timeout: Double
    /// Minimum seconds between two starts of this hook (≥ 0); events in between are dropped.
    public var cooldown: Double

    /// Creates a validated hook.
    /// - Parameters:
    ///   - name: a name for logs; `nil` derives one from the trigger and zone (`enter near`).
    ///   - trigger: `enter`, `exit`, `lost` or `found`.
    ///   - zone: zone name for `enter` / `exit`; `nil` or `*` = any zone.
    ///   - accessory: accessory name or id; `nil` or `*` = any accessory.
    ///   - run: the argv, e.g. `["/usr/bin/logger", "nearby"]`.
    ///   - timeout: seconds (default 10), 0 < timeout ≤ 86400.
    ///   - cooldown: seconds (default 0), 0 ≤ cooldown ≤ 86400.
    /// - Throws: ``HookDefinitionError`` naming the bad field.
    public init(
        name: String? = nil, on trigger: HookTrigger, zone: String? = nil, accessory: String? = nil, run: [String],
        timeout: Double = HookDefinition.defaultTimeout, cooldown: Double = 0
    ) throws(HookDefinitionError) {
        let zone = zone == "*" ? nil : zone
        let accessory = accessory == "*" ? nil : accessory
        if let zone {
            guard trigger.hasZone else {
                throw HookDefinitionError(
                    field: "zone",
                    "a '\(trigger)' hook has no zone (only enter and exit have one); remove zone = \"\(zone)\"")
            }
            guard !zone.isEmpty else {
                throw HookDefinitionError(field: "zone", "the zone name is empty; name a zone (near, mid, far) or write \"*\" for any")
            }
        }
        if let accessory, accessory.isEmpty {
            throw HookDefinitionError(field: "accessory", "the accessory name is empty; name an accessory or write \"*\" for any")
        }
        guard let executable = run.first else {
            throw HookDefinitionError(field: "run", "the command is empty; give the program and its arguments, e.g. [\"/usr/bin/logger\", \"nearby\"]")
        }
        guard !executable.isEmpty else {
            throw HookDefinitionError(field: "run", "the program name (first element) is empty")
        }
        if let bad = run.firstIndex(where: { $0.utf8.contains(0) }) {
            throw HookDefinitionError(field: "run", "argument \(bad) contains a NUL character, which a command line cannot carry")
        }
        guard timeout.isFinite, timeout > 0, timeout <= Self.maximumSeconds else {
            throw HookDefinitionError(field: "timeout", "\(timeout) is not a timeout; write seconds > 0 and ≤ 86400 (default 10)")
        }
        guard cooldown.isFinite, cooldown >= 0, cooldown <= Self.maximumSeconds else {
            throw HookDefinitionError(field: "cooldown", "\(cooldown) is not a cooldown; write seconds ≥ 0 and ≤ 86400 (default 0)")
        }
        self.trigger = trigger
        self.zone = zone
        self.accessory = accessory
        self.run = run
        self.timeout = timeout
        self.cooldown = cooldown
        var summary = trigger.rawValue
        if let zone { summary += " " + zone }
        if let accessory { summary += " of " + accessory }
        self.name = name ?? summary
    }

    /// Whether the hook runs on `event` (see the type's description).
    public func matches(_ event: HookEvent) -> Bool {
        guard event.kind == trigger else { return false }
        if let zone, event.zone != zone { return false }
        if let accessory, accessory != event.accessoryName, accessory != event.accessoryID { return false }
        return true
    }

    /// Checks that ``zone`` names a zone of `zoneNames`.
    /// - Throws: ``HookDefinitionError`` listing the zone names.
    public func validate(zoneNames: [String]) throws(HookDefinitionError) {
        if let zone { try Self.validate(zone: zone, zoneNames: zoneNames) }
    }

    /// Checks that `zone` is `*` or one of `zoneNames`.
    /// - Throws: ``HookDefinitionError`` listing the zone names.
    public static func validate(zone: String, zoneNames: [String]) throws(HookDefinitionError) {
        if zone != "*", !zoneNames.contains(zone) {
            throw HookDefinitionError(
                field: "zone",
                "'\(zone)' is not a zone; the zones are \(zoneNames.joined(separator: ", ")) (or \"*\" for any)")
        }
    }

    /// `name: argv` for logs, e.g. `enter near: ["/bin/echo", "hi"]`.
    public var description: String { "\(name): \(run)" }
}
