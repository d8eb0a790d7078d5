/// Hooks as a command line gives them: the triggers (zones to enter or leave, lost, found) and
/// one command for all of them (`nearby range tag --on-enter near --on-lost -- /usr/bin/logger
/// nearby`), with a timeout and a cooldown for each.
public struct HookTriggers: Sendable, Hashable {
    /// Zones whose entry runs the command (`*` = any zone).
    public var enter: [String]
    /// Zones whose exit runs the command (`*` = any zone).
    public var exit: [String]
    /// Run the command when an accessory is lost.
    public var lost: Bool
    /// Run the command when an accessory is found (again).
    public var found: Bool
    /// Seconds each run may take (`nil`: ``HookDefinition/defaultTimeout``).
    public var timeout: Double?
    /// Minimum seconds between two starts of a hook (`nil`: 0).
    public var cooldown: Double?

    /// Triggers; none by default.
    public init(enter: [String] = [], exit: [String] = [], lost: Bool = false, found: Bool = false, timeout: Double? = nil, cooldown: Double? = nil) {
        self.enter = enter
        self.exit = exit
        self.lost = lost
        self.found = found
        self.timeout = timeout
        self.cooldown = cooldown
    }

    /// Splits a command line at its first `--`: the options before it, and the hook command
    /// after it (empty when there is no `--`). Read the hook command this way before parsing
    /// the options, so a command whose own arguments look like options stays whole.
    public static func splitCommand(_ arguments: [String]) -> (options: [String], command: [String]) {
        guard let terminator = arguments.firstIndex(of: "--") else { return (arguments, []) }
        return (Array(arguments[..<terminator]), Array(arguments[(terminator + 1)...]))
    }

    /// `true` if any trigger is set.
    public var hasTriggers: Bool { !enter.isEmpty || !exit.isEmpty || lost || found }

    /// One hook per trigger, each running `command` (enter zones first, then exit zones, lost,
    /// found), or `nil` when there is no trigger and no command (then a configuration file's
    /// hooks apply).
    /// - Throws: ``HookTriggersError``: a command without a trigger, a timeout or cooldown
    ///   without a trigger, a trigger without a command, or a hook that does not validate.
    public func definitions(command: [String]) throws(HookTriggersError) -> [HookDefinition]? {
        guard hasTriggers else {
            if !command.isEmpty { throw .commandWithoutTrigger }
            if timeout != nil || cooldown != nil { throw .settingsWithoutTrigger }
            return nil
        }
        guard !command.isEmpty else { throw .noCommand }
        var triggers: [(HookTrigger, String?)] = enter.map { (.enter, $0) } + exit.map { (.exit, $0) }
        if lost { triggers.append((.lost, nil)) }
        if found { triggers.append((.found, nil)) }
        var hooks: [HookDefinition] = []
        for (trigger, zone) in triggers {
            do {
                hooks.append(
                    try HookDefinition(
                        on: trigger, zone: zone, run: command, timeout: timeout ?? HookDefinition.defaultTimeout, cooldown: cooldown ?? 0))
            } catch {
                throw .invalid(error, trigger: trigger)
            }
        }
        return hooks
    }
}

/// Why ``HookTriggers`` do not make hooks.
public enum HookTriggersError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A command was given but no trigger.
    case commandWithoutTrigger
    /// A timeout or cooldown was given but no trigger.
    case settingsWithoutTrigger
    /// Triggers were given but no command.
    case noCommand
    /// The hook for `trigger` does not validate.
    case invalid(HookDefinitionError, trigger: HookTrigger)

    /// What is wrong.
    public var description: String {
        switch self {
        case .commandWithoutTrigger: "a hook command needs a trigger (enter ZONE, exit ZONE, lost or found)"
        case .settingsWithoutTrigger: "a hook timeout or cooldown needs a trigger"
        case .noCommand: "the hook has no command"
        case .invalid(let error, let trigger): "\(trigger) hook: \(error)"
        }
    }
}
