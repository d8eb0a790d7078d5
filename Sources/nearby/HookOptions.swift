import ArgumentParser
import Hooks

/// The hook flags, for any command that ranges (`replay`, `range`, `demo`). The command itself is
/// what follows `--` (``HookCommandLine/command``), split off before the flags are parsed.
///
/// `--on-enter ZONE`, `--on-exit ZONE` (repeatable, `*` = any zone), `--on-lost`, `--on-found`
/// choose the events; the command follows `--` as an argv (no shell unless you write one):
///
///     nearby replay walk.csv --on-enter near -- /usr/bin/notify-send "nearby" "near"
///     nearby replay walk.csv --on-exit '*' -- /bin/sh -c 'echo "$NEARBY_ZONE" >> zones.log'
///
/// Hooks given on the command line replace the config file's `[[hook]]`s.
struct HookTriggerOptions: ParsableArguments {
    @Option(
        name: .customLong("on-enter"),
        help: ArgumentHelp("Run the command after -- when an accessory enters ZONE (repeatable; '*' = any zone).", valueName: "zone"))
    var onEnter: [String] = []

    @Option(
        name: .customLong("on-exit"),
        help: ArgumentHelp("Run the command after -- when an accessory leaves ZONE (repeatable; '*' = any zone).", valueName: "zone"))
    var onExit: [String] = []

    @Flag(name: .customLong("on-lost"), help: "Run the command after -- when an accessory is lost (silent too long).")
    var onLost = false

    @Flag(name: .customLong("on-found"), help: "Run the command after -- when an accessory is found (again).")
    var onFound = false

    @Option(
        name: .customLong("hook-timeout"),
        help: ArgumentHelp("Seconds the hook command may run before SIGTERM (then SIGKILL 2 s later); default 10.", valueName: "s"))
    var hookTimeout: Double?

    @Option(
        name: .customLong("hook-cooldown"),
        help: ArgumentHelp("Minimum seconds between two starts of the hook command; default 0.", valueName: "s"))
    var hookCooldown: Double?

    /// `true` if any trigger flag was given.
    var hasTriggers: Bool { triggers.hasTriggers }

    /// The flags' triggers.
    var triggers: HookTriggers {
        HookTriggers(enter: onEnter, exit: onExit, lost: onLost, found: onFound, timeout: hookTimeout, cooldown: hookCooldown)
    }

    /// The hooks the flags describe (one per trigger, all running `command`, the argv given
    /// after `--`), or `nil` when no trigger flag was given (then the config file's hooks apply).
    /// - Throws: `ValidationError` for a trigger without a command, a command without a
    ///   trigger, or invalid values.
    func definitions(command: [String]) throws -> [HookDefinition]? {
        do {
            return try triggers.definitions(command: command)
        } catch {
            switch error {
            case .commandWithoutTrigger:
                throw ValidationError("a command after -- needs a trigger: add --on-enter ZONE, --on-exit ZONE, --on-lost or --on-found")
            case .settingsWithoutTrigger:
                throw ValidationError("--hook-timeout and --hook-cooldown apply to a hook: add --on-enter ZONE ... -- COMMAND")
            case .noCommand:
                throw ValidationError("the hook has no command: put it after --, e.g. --on-enter near -- /usr/bin/logger -t nearby near")
            case .invalid(let error, let trigger):
                let flags = ["timeout": "--hook-timeout", "cooldown": "--hook-cooldown", "zone": trigger == .enter ? "--on-enter" : "--on-exit"]
                throw ValidationError("\(flags[error.field] ?? "the command after --"): \(error.message)")
            }
        }
    }
}

/// The hook flags with the command after `--` (``HookCommandLine/command``), for `replay`.
struct HookOptions: ParsableArguments {
    @OptionGroup var triggers: HookTriggerOptions

    /// The hook command: what follows `--` on the command line.
    var command: [String] { HookCommandLine.command }

    /// `true` if any trigger flag was given.
    var hasTriggers: Bool { triggers.hasTriggers }

    func validate() throws {
        _ = try definitions()
    }

    /// See ``HookTriggerOptions/definitions(command:)``.
    func definitions() throws -> [HookDefinition]? { try triggers.definitions(command: command) }
}
