public import NearbySupport

/// What went wrong with the accessory store; ``description`` says what to do.
public enum AccessoryStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The store file is not a valid store (`detail`: the parse error). It was moved to `keptAt`
    /// (never overwritten); the next access starts with an empty store.
    case corrupt(path: String, keptAt: String, detail: String)
    /// The file was written by a newer nearby (schema `version`); it is left alone.
    case unsupportedVersion(path: String, version: Int)
    /// Reading, writing or locking the file failed.
    case fileSystem(FileSystemError)
    /// No accessory matches `query` (`known` lists the store's accessories).
    case notFound(query: String, known: [String])
    /// More than one accessory matches `query`.
    case ambiguous(query: String, matches: [String])
    /// A value is not acceptable (`detail` says which and why), e.g. an empty name.
    case invalidArgument(detail: String)

    /// What went wrong and what to do.
    public var description: String {
        switch self {
        case .corrupt(let path, let keptAt, let detail):
            return "the accessory store \(path) is damaged (\(detail)). It was moved aside to \(keptAt) "
                + "(nothing was overwritten); nearby starts with an empty store from the next command on. "
                + "Repair the copy and move it back, or set the accessories up again (nearby setup / nearby accessories migrate)"
        case .unsupportedVersion(let path, let version):
            return "the accessory store \(path) has schema version \(version), newer than the version 1 this nearby reads: "
                + "upgrade nearby, or use another store with --store"
        case .fileSystem(let error):
            return "accessory store: \(error)"
        case .notFound(let query, let known):
            if known.isEmpty {
                return "no accessory matches \"\(query)\": the store is empty (set one up with nearby setup)"
            }
            return "no accessory matches \"\(query)\"; known: " + known.joined(separator: "; ")
                + " (give an id, an address or a name; see nearby accessories list)"
        case .ambiguous(let query, let matches):
            return "\"\(query)\" matches \(matches.count) accessories (" + matches.joined(separator: "; ")
                + "): give the id or the address instead"
        case .invalidArgument(let detail):
            return "invalid argument: \(detail)"
        }
    }
}
