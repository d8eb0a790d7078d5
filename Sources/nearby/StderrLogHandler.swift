#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Logging
import NearbyConfig

/// The CLI's swift-log handler: one line per message on standard error,
/// `HH:MM:SS.mmm level label: message key=value ...`, the level coloured when enabled.
struct StderrLogHandler: LogHandler {
    let label: String
    let colored: Bool
    var logLevel: Logger.Level = .warning
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Whether to colour standard error: `always`, `never`, or for `auto` only when it is a
    /// terminal and `NO_COLOR` is unset or empty (https://no-color.org).
    static func shouldColor(mode: ColorMode) -> Bool {
        switch mode {
        case .always: return true
        case .never: return false
        case .auto:
            if let value = getenv("NO_COLOR"), value.pointee != 0 { return false }
            return isatty(STDERR_FILENO) == 1
        }
    }

    func log(event: LogEvent) {
        var merged = metadata
        if let extra = event.metadata { merged.merge(extra) { _, new in new } }
        var line = Self.clock() + " " + Self.paint(event.level, colored: colored) + " " + label + ": " + "\(event.message)"
        if !merged.isEmpty {
            line += " " + merged.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.quote("\($0.value)"))" }.joined(separator: " ")
        }
        FileHandle.standardError.write(Data((line + "\n").utf8))
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
    private static func quote(_ value: String) -> String {
        guard value.contains(where: { $0 == " " || $0 == "\n" || $0 == "\"" || $0 == "\t" }) else { return value }
        var text = "\""
        for character in value {
            switch character {
            case "\n": text += "\\n"
            case "\t": text += "\\t"
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            default: text.append(character)
            }
        }
        return text + "\""
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
