public import Hooks
import Positioning
public import Ranging

/// The settings of the configuration file (`specs/config.md`). Every value is optional: unset
/// means the command's default. Apply command-line flags with ``overridden(by:)`` (a flag wins
/// over the file), then build what a command needs (``zoneMap()``, ``makePipeline()``).
public struct NearbyConfiguration: Sendable, Hashable {
    /// `[zones]`.
    public var zones = ZoneSettings()
    /// `[filter]`.
    public var filter = FilterSettings()
    /// `[[hook]]`, in file order.
    public var hooks: [HookDefinition]?
    /// `[transports]`.
    public var transports = TransportSettings()
    /// `[retry]`.
    public var retry = RetrySettings()
    /// `[output]`.
    public var output = OutputSettings()
    /// `[web]`.
    public var web = WebViewSettings()
    /// `[mqtt]`.
    public var mqtt = MQTTSettings()
    /// `[accessory]`.
    public var accessory = AccessoryRoleFileSettings()
    /// `[house]`, `[[house.host]]`, `[[house.room]]`.
    public var house = HouseSettings()

    /// An empty configuration (every value unset: all defaults).
    public init() {}

    /// The configuration with every value set in `flags` replacing this one's. Hooks given in
    /// `flags` replace the file's hooks (use one or the other, not a mix).
    public func overridden(by flags: NearbyConfiguration) -> NearbyConfiguration {
        var result = self
        result.zones = zones.overridden(by: flags.zones)
        result.filter = filter.overridden(by: flags.filter)
        result.hooks = flags.hooks ?? hooks
        result.transports = transports.overridden(by: flags.transports)
        result.retry = retry.overridden(by: flags.retry)
        result.output = output.overridden(by: flags.output)
        result.web = web.overridden(by: flags.web)
        result.mqtt = mqtt.overridden(by: flags.mqtt)
        result.accessory = accessory.overridden(by: flags.accessory)
        result.house = house.overridden(by: flags.house)
        return result
    }

    /// The hooks in effect (none when unset).
    public var effectiveHooks: [HookDefinition] { hooks ?? [] }

    /// The zone map (see ``ZoneSettings/zoneMap()``).
    /// - Throws: `ZoneMapError` (only after an override: a loaded file is already checked).
    public func zoneMap() throws(ZoneMapError) -> ZoneMap { try zones.zoneMap() }

    /// A ranging pipeline with the configured filter, zones and lost-after limit.
    /// - Throws: `ZoneMapError` if the zones are invalid.
    public func makePipeline() throws(ZoneMapError) -> RangingPipeline<ConfiguredFilter> {
        RangingPipeline(
            distanceFilter: filter.distanceFilter(), angleFilter: filter.angleFilter(), zones: try zoneMap(),
            lostAfter: zones.effectiveLostAfter)
    }

    /// Checks that every hook's zone is a zone of the map.
    /// - Throws: `HookDefinitionError` (Hooks) for the first hook naming an unknown zone.
    public func validateHooks() throws {
        let names = try zoneMap().zones.map(\.name)
        for hook in effectiveHooks { try hook.validate(zoneNames: names) }
    }

    /// A human summary of the settings in effect (what `nearby config check` prints).
    public var summary: String {
        var lines: [String] = []
        if let map = try? zoneMap() {
            let zoneText = map.zones.map { zone in
                zone.upperBound.isFinite ? "\(zone.name) < \(Self.number(zone.upperBound)) m" : zone.name
            }.joined(separator: ", ")
            lines.append(
                "zones: \(zoneText); hysteresis \(Self.number(zones.hysteresis ?? ZoneSettings.defaultHysteresis)) m, "
                    + "dwell \(Self.number(zones.dwell ?? ZoneSettings.defaultDwell)) s, lost after \(Self.number(zones.effectiveLostAfter)) s")
        }
        var filterText = "filter: \(filter.effectiveSpec.name)"
        let tuned = [
            filter.imm != nil ? "imm" : nil, filter.kalman != nil ? "kalman" : nil, filter.oneEuro != nil ? "one_euro" : nil, filter.hampel != nil ? "hampel" : nil,
            filter.medianAverage != nil ? "median3" : nil, filter.movingAverage != nil ? "ma10" : nil,
            filter.exponential != nil ? "ema" : nil,
        ].compactMap { $0 }
        if !tuned.isEmpty { filterText += " (parameters set for \(tuned.joined(separator: ", ")))" }
        lines.append(filterText)
        lines.append("hooks: \(effectiveHooks.count)")
        for (index, hook) in effectiveHooks.enumerated() {
            var text = "  \(index + 1). on \(hook.trigger)"
            if hook.trigger.hasZone { text += " \(hook.zone ?? "any zone")" }
            text += ", accessory \(hook.accessory ?? "*"): \(hook.run) (timeout \(Self.number(hook.timeout)) s"
            if hook.cooldown > 0 { text += ", cooldown \(Self.number(hook.cooldown)) s" }
            lines.append(text + ")")
        }
        lines.append("transports: hci \(transports.hci ?? "(default)"), uwb \(transports.uwb ?? "(default)")")
        var retryParts: [String] = []
        if let value = retry.maxAttempts { retryParts.append("max_attempts \(value)") }
        if let value = retry.initialBackoff { retryParts.append("initial_backoff \(Self.number(value)) s") }
        if let value = retry.maxBackoff { retryParts.append("max_backoff \(Self.number(value)) s") }
        lines.append("retry: " + (retryParts.isEmpty ? "(defaults)" : retryParts.joined(separator: ", ")))
        lines.append(
            "output: json \(output.json.map(String.init) ?? "(default: false)"), color \(output.color?.rawValue ?? "(default: auto)"), "
                + "log level \(output.logLevel?.rawValue ?? "(default: warning)")")
        lines.append("web: token \(web.token == nil ? "not set" : "set")")
        lines.append(mqtt.summary)
        if !house.isEmpty {
            lines.append("house: hosts \((house.hosts ?? []).map(\.name).joined(separator: ", ")); rooms \((house.rooms ?? []).map(\.name).joined(separator: ", "))")
        }
        return lines.joined(separator: "\n")
    }

    /// `1.5`, `3`, `0.25`: the shortest form of a Double.
    static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}

/// Resolves one setting from the places it can come from: a command-line flag wins over the
/// configuration file, which wins over the built-in default.
public enum Precedence {
    /// `flag ?? config ?? defaultValue`.
    public static func resolve<Value>(flag: Value?, config: Value?, default defaultValue: Value) -> Value {
        flag ?? config ?? defaultValue
    }
}
