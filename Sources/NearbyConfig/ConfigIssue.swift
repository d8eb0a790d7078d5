/// One problem in a configuration file: where (line, key path) and what to do.
public struct ConfigIssue: Sendable, Hashable, CustomStringConvertible {
    /// 1-based line in the file.
    public var line: Int
    /// 1-based column, when known (syntax errors).
    public var column: Int?
    /// The key path, e.g. `zones.hysteresis`, `hook[2].run` (the first `[[hook]]` is `hook[1]`);
    /// empty for syntax errors.
    public var key: String
    /// What is wrong and how to fix it.
    public var message: String

    /// Creates an issue.
    public init(line: Int, column: Int? = nil, key: String, message: String) {
        self.line = line
        self.column = column
        self.key = key
        self.message = message
    }

    /// `line 12: zones.hysteresis: expected a number, found a string`.
    public var description: String {
        var text = "line \(line)"
        if let column { text += ", column \(column)" }
        text += ": "
        if !key.isEmpty { text += key + ": " }
        return text + message
    }
}

/// A configuration file that cannot be used: every problem found, in line order.
public struct ConfigError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file (path, or `-` for standard input).
    public var source: String
    /// The problems, sorted by line.
    public var issues: [ConfigIssue]

    /// Creates an error.
    public init(source: String, issues: [ConfigIssue]) {
        self.source = source
        self.issues = issues.sorted { ($0.line, $0.column ?? 0) < ($1.line, $1.column ?? 0) }
    }

    /// One line per issue, `FILE:LINE: key: message`, as compilers print them.
    public var description: String {
        issues.map { issue in
            var text = "\(source):\(issue.line):"
            if let column = issue.column { text += "\(column):" }
            text += " "
            if !issue.key.isEmpty { text += issue.key + ": " }
            return text + issue.message
        }.joined(separator: "\n")
    }
}
