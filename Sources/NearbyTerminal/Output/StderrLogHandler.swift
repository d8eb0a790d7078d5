#if canImport(Glibc)
import Glibc
#endif
import Foundation
public import Logging
public import NearbyConfig
import Synchronization

/// A swift-log handler for command-line programs: one line per message on standard error,
/// `HH:MM:SS.mmm level label: message key=value ...`, the level coloured when enabled.
public struct StderrLogHandler: LogHandler {
    /// The logger's label (`nearby.uwb`, ...), printed on each line.
    public let label: String
    /// Whether the level is coloured (ANSI).
    public let colored: Bool
    /// Messages below this level are dropped.
    public var logLevel: Logger.Level = .warning
    /// Metadata added to every message of this handler.
    public var metadata: Logger.Metadata = [:]

    private static let bootstrapped = Mutex(false)

    /// A handler for `label`, coloured or not.
    public init(label: String, colored: Bool) {
        self.label = label
        self.colored = colored
    }

    /// One metadata value.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Sends swift-log to standard error at `level`, coloured per `color`. Only the first call
    /// in a process configures logging (swift-log allows one bootstrap); later calls do nothing.
    public static func bootstrap(level: Logger.Level, color: ColorMode) {
        let first = bootstrapped.withLock { done -> Bool in
            defer { done = true }
            return !done
        }
        guard first else { return }
        let colored = shouldColor(mode: color)
        LoggingSystem.bootstrap { label in
            var handler = StderrLogHandler(label: label, colored: colored)
            handler.logLevel = level
            return handler
        }
    }

    /// Sends swift-log to standard error as `output` says (`OutputSettings`:
    /// `log_level`, else `warning`; `color`, else `auto`), unless `level` (a command-line flag)
    /// overrides the level. Only the first bootstrap in a process counts.
    public static func bootstrap(level: LogLevelName?, output: OutputSettings) {
        let name = Precedence.resolve(flag: level, config: output.logLevel, default: .warning)
        bootstrap(level: Logger.Level(rawValue: name.rawValue) ?? .warning, color: output.color ?? .auto)
    }

    /// Whether to colour standard error: `always`, `never`, or for `auto` only when it is a
    /// terminal and `NO_COLOR` is unset or empty (https://no-color.org).
    public static func shouldColor(mode: ColorMode) -> Bool {
        switch mode {
        case .always: return true
        case .never: return false
        case .auto:
            if let value = getenv("NO_COLOR"), value.pointee != 0 { return false }
            return isatty(STDERR_FILENO) == 1
        }
    }

    /// Writes one line for `event` to standard error.
    public func log(event: LogEvent) {
        var merged = metadata
        if let extra = event.metadata { merged.merge(extra) { _, new in new } }
        var line = Self.clock() + " " + Self.paint(event.level, colored: colored) + " " + label + ": " + "\(event.message)"
        if !merged.isEmpty {
            line += " " + merged.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.quote("\($0.value)"))" }.joined(separator: " ")
        }
        Console.error(line)
    }

    private static func paint(_ level: Logger.Level, colored: Bool) -> String {
        let name = level.rawValue
        guard colored else { return name }
        let code: String =
            switch level {
            case .trace, .debug: "2"
            case .info: "36"
            case .notice: "1;36"
            case .warning: "33"
            case .error: "31"
            case .critical: "1;31"
            }
        return "\u{1B}[\(code)m\(name)\u{1B}[0m"
    }

    /// A metadata value, quoted when it holds spaces or line breaks (which are escaped).
    static func quote(_ value: String) -> String {
        guard value.contains(where: { $0 == " " || $0 == "\n" || $0 == "\"" || $0 == "\t" }) else { return value }
        let escapes: [Character: String] = ["\n": "\\n", "\t": "\\t", "\"": "\\\"", "\\": "\\\\"]
        return "\"" + value.map { escapes[$0] ?? String($0) }.joined() + "\""
    }

    /// The local wall-clock time `HH:MM:SS.mmm`.
    private static func clock() -> String {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        var seconds = spec.tv_sec
        var parts = tm()
        localtime_r(&seconds, &parts)
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(Int(parts.tm_hour), 2)):\(pad(Int(parts.tm_min), 2)):\(pad(Int(parts.tm_sec), 2)).\(pad(Int(spec.tv_nsec / 1_000_000), 3))"
    }
}
