public import Foundation
import LowEnergy
import NearbySupport
#if canImport(Glibc)
import Glibc
#endif

/// The store of set-up accessories: one JSON file shared by every `nearby` process
/// (specs/accessories.md §4).
///
/// - Location: `$XDG_STATE_HOME/nearby/accessories.json`, else
///   `~/.local/state/nearby/accessories.json` (``defaultPath(environment:)``), or any path.
/// - Every change is a read-modify-write under an exclusive `flock` on `<file>.lock`: the file
///   is re-read under the lock, changed, and written atomically (``AtomicFile``: temporary
///   file, fsync, rename; mode 0600), so concurrent processes never lose each other's changes
///   and a crash never leaves half a file.
/// - A damaged file is moved aside to `<file>.corrupt-<UTC time>` (never overwritten) and the
///   access fails with ``AccessoryStoreError/corrupt(path:keptAt:detail:)``; the next access
///   starts with an empty store.
/// - ``events()`` reports ``AccessoryStoreEvent``s: this store's changes at once, other
///   processes' changes on the next access, ``reload()``, or while ``startWatching(interval:)``.
///
/// The lock is taken with blocking calls (at most `lockTimeout`); the critical sections do
/// no `await`, so they are short and never wait on another task.
public actor AccessoryStore {
    /// The store file.
    public nonisolated let path: String
    /// How long to wait for another process's lock.
    public nonisolated let lockTimeout: Duration
    private let broadcaster = Broadcaster<AccessoryStoreEvent>()
    /// The records as last read or written by this instance (`nil` before the first access).
    private var snapshot: [AccessoryRecord]?
    private var watcher: Task<Void, Never>?

    /// What ``add(_:ifPresent:)`` did.
    public enum AddOutcome: Sendable, Hashable {
        /// A new record.
        case added(AccessoryRecord)
        /// An accessory with the same address was stored already and was updated (its id and
        /// `addedAt` kept).
        case updated(AccessoryRecord, previous: AccessoryRecord)
        /// An accessory with the same address was stored already and kept as it was.
        case alreadyStored(AccessoryRecord)

        /// The record in the store afterwards.
        public var record: AccessoryRecord {
            switch self {
            case .added(let record), .updated(let record, _), .alreadyStored(let record): return record
            }
        }
    }

    /// What ``add(_:ifPresent:)`` does when the address is stored already.
    public enum ExistingPolicy: Sendable, Hashable {
        /// Replace the record's fields, keeping its id and `addedAt` (setting up again).
        case update
        /// Leave it alone (migrating what is already there).
        case keep
    }

    /// Opens the store at `path` (nothing is read until the first access).
    /// - Parameters:
    ///   - path: the file; `nil`: ``defaultPath(environment:)``.
    ///   - lockTimeout: how long to wait for another process holding the lock (default 5 s).
    public init(path: String? = nil, lockTimeout: Duration = .seconds(5)) {
        self.path = path ?? Self.defaultPath()
        self.lockTimeout = lockTimeout
    }

    /// `$XDG_STATE_HOME/nearby/accessories.json` when `XDG_STATE_HOME` is an absolute path
    /// (the XDG spec ignores relative ones), else `$HOME/.local/state/nearby/accessories.json`
    /// (the home directory from the password database if `HOME` is unset).
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return state + "/nearby/accessories.json"
        }
        var home = environment["HOME"] ?? ""
        if home.isEmpty, let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir {
            home = String(cString: directory)
        }
        return (home.isEmpty ? "." : home) + "/.local/state/nearby/accessories.json"
    }

    /// The lock file next to the store.
    public nonisolated var lockPath: String { path + ".lock" }

    /// Store changes from now on.
    public nonisolated func events() -> AsyncStream<AccessoryStoreEvent> {
        broadcaster.subscribe()
    }

    // MARK: - Reading

    /// Every stored accessory, in the order they were added.
    /// - Throws: ``AccessoryStoreError`` (damaged file, newer schema, I/O).
    public func list() throws(AccessoryStoreError) -> [AccessoryRecord] {
        try read()
    }

    /// The accessory with identifier `id`, or `nil`.
    public func record(id: String) throws(AccessoryStoreError) -> AccessoryRecord? {
        try read().first { $0.id == id }
    }

    /// The one accessory `query` designates, for `nearby range ACCESSORY` and friends. Tried in
    /// order, the first kind with any match wins:
    /// 1. the id (exact), 2. an id prefix of at least 4 digits, 3. the address
    /// (`AA:BB:CC:DD:EE:FF`, any case), 4. the display name (ignoring case), 5. the advertised
    /// name (ignoring case).
    /// - Throws: ``AccessoryStoreError/notFound(query:known:)`` listing what is stored,
    ///   ``AccessoryStoreError/ambiguous(query:matches:)`` naming the matches, or a file error.
    public func resolve(_ query: String) throws(AccessoryStoreError) -> AccessoryRecord {
        try Self.resolve(query, in: try read())
    }

    /// Re-reads the file and reports what another process changed since this instance last
    /// looked (the events are also delivered to ``events()``).
    @discardableResult
    public func reload() throws(AccessoryStoreError) -> [AccessoryStoreEvent] {
        let before = snapshot
        let records = try readLocked()
        guard let before else { return [] }
        return AccessoryStoreEvent.difference(from: before, to: records)
    }

    // MARK: - Changing

    /// Adds `record` (setup or migration).
    /// - Parameter ifPresent: what to do if an accessory with the same address is stored.
    /// - Returns: what happened (the stored record has a fresh id if `record.id` was taken).
    /// - Throws: ``AccessoryStoreError``.
    @discardableResult
    public func add(_ record: AccessoryRecord, ifPresent: ExistingPolicy = .update) throws(AccessoryStoreError) -> AddOutcome {
        var outcome: AddOutcome?
        try modify { records throws(AccessoryStoreError) in
            if let index = records.firstIndex(where: { $0.address == record.address }) {
                let previous = records[index]
                switch ifPresent {
                case .keep:
                    outcome = .alreadyStored(previous)
                case .update:
                    var updated = record
                    updated.id = previous.id
                    updated.addedAt = previous.addedAt
                    records[index] = updated
                    outcome = .updated(updated, previous: previous)
                }
            } else {
                var added = record
                while records.contains(where: { $0.id == added.id }) { added.id = AccessoryRecord.newID() }
                records.append(added)
                outcome = .added(added)
            }
        }
        // Return the records as stored (read back from what was written).
        switch outcome! {
        case .added(let record): return .added(try stored(record.id))
        case .updated(let record, let previous): return .updated(try stored(record.id), previous: previous)
        case .alreadyStored(let record): return .alreadyStored(record)
        }
    }

    /// Renames the accessory `query` designates (see ``resolve(_:)``).
    /// - Throws: ``AccessoryStoreError/invalidArgument(detail:)`` for an empty name, resolve errors.
    @discardableResult
    public func rename(_ query: String, to name: String) throws(AccessoryStoreError) -> AccessoryRecord {
        let trimmed = name.trimmedWhitespace
        guard !trimmed.isEmpty else { throw .invalidArgument(detail: "the new name is empty") }
        return try update(query) { $0.displayName = trimmed }
    }

    /// Records that the accessory `query` designates was seen at `date` (whole seconds).
    @discardableResult
    public func touch(_ query: String, at date: Date = Date()) throws(AccessoryStoreError) -> AccessoryRecord {
        try update(query) { $0.lastSeenAt = AccessoryRecord.wholeSeconds(date) }
    }

    /// Changes the accessory `query` designates with `body` (its id cannot change).
    @discardableResult
    public func update(_ query: String, _ body: @Sendable (inout AccessoryRecord) -> Void) throws(AccessoryStoreError) -> AccessoryRecord {
        var id = ""
        try modify { records throws(AccessoryStoreError) in
            let target = try Self.resolve(query, in: records)
            let index = records.firstIndex { $0.id == target.id }!
            var record = records[index]
            body(&record)
            record.id = target.id
            records[index] = record
            id = target.id
        }
        return try stored(id)
    }

    /// Removes the accessory `query` designates.
    /// - Returns: the removed record.
    @discardableResult
    public func forget(_ query: String) throws(AccessoryStoreError) -> AccessoryRecord {
        var removed: AccessoryRecord?
        try modify { records throws(AccessoryStoreError) in
            let target = try Self.resolve(query, in: records)
            records.removeAll { $0.id == target.id }
            removed = target
        }
        return removed!
    }

    // MARK: - Watching other processes

    /// Polls the file every `interval` and reports other processes' changes as events until
    /// ``stopWatching()``. Cheap: one `stat` per interval, a read only when the file changed.
    public func startWatching(interval: Duration = .seconds(1)) {
        guard watcher == nil else { return }
        let path = self.path
        watcher = Task { [weak self] in
            var last = Self.fileIdentity(path)
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                let now = Self.fileIdentity(path)
                if now != last {
                    last = now
                    _ = try? await self?.reload()
                }
            }
        }
    }

    /// Stops ``startWatching(interval:)``.
    public func stopWatching() {
        watcher?.cancel()
        watcher = nil
    }

    /// Ends every ``events()`` stream and stops watching.
    public func close() {
        stopWatching()
        broadcaster.finish()
    }

    // MARK: - Internals

    private struct FileIdentity: Equatable {
        var inode: UInt64
        var size: Int64
        var seconds: Int
        var nanoseconds: Int
    }

    private static func fileIdentity(_ path: String) -> FileIdentity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileIdentity(inode: UInt64(info.st_ino), size: Int64(info.st_size),
                            seconds: Int(info.st_mtim.tv_sec), nanoseconds: Int(info.st_mtim.tv_nsec))
    }

    private func stored(_ id: String) throws(AccessoryStoreError) -> AccessoryRecord {
        guard let record = snapshot?.first(where: { $0.id == id }) else {
            throw .notFound(query: id, known: (snapshot ?? []).map(\.description))
        }
        return record
    }

    /// Reads for a query: no file, no lock needed (and no directory created).
    private func read() throws(AccessoryStoreError) -> [AccessoryRecord] {
        if access(path, F_OK) != 0 && errno == ENOENT {
            publish(from: snapshot, to: [])
            snapshot = []
            return []
        }
        return try readLocked()
    }

    /// Reads under the lock (the lock guards moving a damaged file aside). If the lock file
    /// cannot be created (read-only directory), reads without it.
    private func readLocked() throws(AccessoryStoreError) -> [AccessoryRecord] {
        let lock: FileLock?
        do {
            lock = try FileLock(path: lockPath, timeout: lockTimeout)
        } catch let error where error.operation.hasPrefix("lock") {
            throw .fileSystem(error)
        } catch {
            lock = nil
        }
        defer { lock?.unlock() }
        let records = try load()
        publish(from: snapshot, to: records)
        snapshot = records
        return records
    }

    /// One read-modify-write cycle under the lock.
    private func modify(_ change: (inout [AccessoryRecord]) throws(AccessoryStoreError) -> Void) throws(AccessoryStoreError) {
        let lock: FileLock
        do {
            lock = try FileLock(path: lockPath, timeout: lockTimeout)
        } catch {
            throw .fileSystem(error)
        }
        defer { lock.unlock() }
        let current = try load()
        publish(from: snapshot, to: current)  // what other processes changed
        snapshot = current
        var records = current
        try change(&records)
        guard records != current else { return }
        let bytes = StoreFile.encode(records)
        do {
            try AtomicFile.write(bytes, to: path, permissions: 0o600)
        } catch {
            throw .fileSystem(error)
        }
        // The canonical form: what a reader of the file gets.
        let written = (try? StoreFile.decode(bytes)) ?? records
        publish(from: current, to: written)
        snapshot = written
    }

    private func publish(from old: [AccessoryRecord]?, to new: [AccessoryRecord]) {
        guard let old else { return }
        for event in AccessoryStoreEvent.difference(from: old, to: new) { broadcaster.yield(event) }
    }

    /// Reads and decodes the file; a missing file is an empty store. Call with the lock held.
    private func load() throws(AccessoryStoreError) -> [AccessoryRecord] {
        let bytes: [UInt8]?
        do {
            bytes = try AtomicFile.read(path)
        } catch {
            throw .fileSystem(error)
        }
        guard let bytes else { return [] }
        let failure: StoreFile.DecodeFailure
        do {
            return try StoreFile.decode(bytes)
        } catch {
            failure = error
        }
        switch failure {
        case .newerVersion(let version):
            throw .unsupportedVersion(path: path, version: version)
        case .corrupt(let detail):
            let keptAt = try moveAside()
            throw .corrupt(path: path, keptAt: keptAt, detail: detail)
        }
    }

    /// Moves the damaged file to `<path>.corrupt-<UTC time>[-N]` without ever replacing a file
    /// (`link` fails if the name exists; then the original name is removed).
    private func moveAside() throws(AccessoryStoreError) -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        let stamp = String(format: "%04d%02d%02dT%02d%02d%02dZ", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday,
                           parts.tm_hour, parts.tm_min, parts.tm_sec)
        var attempt = 0
        while true {
            let target = path + ".corrupt-" + stamp + (attempt == 0 ? "" : "-\(attempt)")
            if link(path, target) == 0 {
                unlink(path)
                return target
            }
            let code = errno
            guard code == EEXIST else {
                throw .fileSystem(FileSystemError(path: path, operation: "move the damaged store aside to \(target)", errno: code))
            }
            attempt += 1
        }
    }

    static func resolve(_ query: String, in records: [AccessoryRecord]) throws(AccessoryStoreError) -> AccessoryRecord {
        let text = query.trimmedWhitespace
        let lowered = text.lowercased()
        let address = BluetoothAddress(text)
        let tiers: [(AccessoryRecord) -> Bool] = [
            { $0.id == lowered },
            { lowered.count >= 4 && $0.id.hasPrefix(lowered) },
            { address != nil && $0.address == address },
            { $0.displayName.lowercased() == lowered },
            { $0.advertisedName?.lowercased() == lowered },
        ]
        for tier in tiers {
            let matches = records.filter(tier)
            if matches.count == 1 { return matches[0] }
            if matches.count > 1 { throw .ambiguous(query: text, matches: matches.map(\.description)) }
        }
        throw .notFound(query: text, known: records.map(\.description))
    }
}
