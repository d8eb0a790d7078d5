import NearbySupport

/// What `nearby config check` found: the file is valid, absent (defaults apply), or has problems.
public enum ConfigurationCheck: Sendable {
    /// The file at `source` (`<stdin>` for standard input) is valid.
    case valid(source: String, configuration: NearbyConfiguration)
    /// There is no file at the default `path`: every setting has its default.
    case absent(path: String)
    /// No file was named and there is no default location (neither `XDG_CONFIG_HOME` nor `HOME` is set).
    case noDefaultLocation
    /// The file has problems, each with its line.
    case invalid(ConfigError)

    /// Checks `file`: a path, `-` for `standardInput()`, or `nil` for the default file.
    /// - Parameters:
    ///   - file: the file's path, `-` for standard input, `nil` for the default location.
    ///   - validators: checks of the transport specs.
    ///   - standardInput: reads standard input (called only for `-`).
    public init(file: String?, validators: TransportValidators, standardInput: () -> [UInt8]) {
        do {
            if file == "-" {
                self = .valid(source: "<stdin>", configuration: try ConfigurationFile.parse(bytes: standardInput(), source: "<stdin>", validators: validators))
                return
            }
            guard let path = file ?? ConfigurationFile.defaultPath() else {
                self = .noDefaultLocation
                return
            }
            let loaded = try ConfigurationFile.load(path: file, validators: validators)
            self = loaded.path == nil ? .absent(path: path) : .valid(source: path, configuration: loaded.configuration)
        } catch {
            self = .invalid(error)
        }
    }

    /// The lines for people: `FILE: OK` and the summary; or where the file would be and how to
    /// create one; or every problem and their count. (``noDefaultLocation`` has none: say which
    /// file to name.)
    public var lines: [String] {
        switch self {
        case .valid(let source, let configuration): ["\(source): OK", configuration.summary]
        case .absent(let path):
            [
                "no configuration file at \(path); every setting has its default",
                "create one with: mkdir -p \(AtomicFile.parentDirectory(of: path)) && nearby config example > \(path)",
            ]
        case .noDefaultLocation: []
        case .invalid(let error): [error.description, "\(error.issues.count) problem\(error.issues.count == 1 ? "" : "s") in \(error.source)"]
        }
    }
}
