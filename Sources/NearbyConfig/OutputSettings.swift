/// When to colour terminal output (`color`).
public enum ColorMode: String, Sendable, Hashable, CaseIterable {
    /// Colour when the stream is a terminal and `NO_COLOR` is not set.
    case auto
    /// Always colour.
    case always
    /// Never colour.
    case never
}

/// A log level name, as swift-log spells them (`log_level`, `--log-level`).
public enum LogLevelName: String, Sendable, Hashable, CaseIterable {
    /// Everything.
    case trace
    /// Diagnostics.
    case debug
    /// Normal operation (every hook run).
    case info
    /// Noteworthy (coalesced hook runs).
    case notice
    /// Problems that were handled (the default).
    case warning
    /// Failures.
    case error
    /// Failures that stop nearby.
    case critical
}

/// `[output]`: how commands print.
public struct OutputSettings: Sendable, Hashable {
    /// Print JSON lines instead of text (`json`).
    public var json: Bool?
    /// Colour (`color`: `auto`, `always`, `never`).
    public var color: ColorMode?
    /// Log level on stderr (`log_level`; default `warning`).
    public var logLevel: LogLevelName?

    /// Creates settings; `nil` = not set.
    public init(json: Bool? = nil, color: ColorMode? = nil, logLevel: LogLevelName? = nil) {
        self.json = json
        self.color = color
        self.logLevel = logLevel
    }

    /// These settings with every value set in `flags` replacing this one (flags win).
    public func overridden(by flags: OutputSettings) -> OutputSettings {
        OutputSettings(json: flags.json ?? json, color: flags.color ?? color, logLevel: flags.logLevel ?? logLevel)
    }
}
