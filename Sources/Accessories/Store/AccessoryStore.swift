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
///   is re-read under the lock, changed, and written atomically (`AtomicFile`: temporary
///   file, fsync, rename; mode 0600), so concurrent processes never lose each other's changes
///   and a crash never leaves half a file.
/// - A damaged file is moved aside to `<file>.corrupt-<UTC time>` (never overwritten) and the
///   access fails with ``AccessoryStoreError/corrupt(path:keptAt:detail:)``; the next access
///   starts with an empty store.
/// - ``events()`` reports ``AccessoryStoreEvent``s: this store's changes at once, other
///   processes' changes on the next access, ``reload()``, or while ``startWatching(interval:)``.
///
/// File access and the blocking lock (at most `lockTimeout`) run on a serial dispatch queue per
/// instance, never on Swift's cooperative threads, so waiting for another process's lock does
/// not starve other tasks; changes of one instance are applied and reported in call order.
public actor AccessoryStore {
    /// The store file.
    public nonisolated let path: String
    /// How long to wait for another process's lock.
    public nonisolated let lockTimeout: Duration
    private let core: StoreCore
    private var watcher: Task<Void, Never>?
    /// Bonds made with accessories that are not stored yet (setup pairs before it stores).
    var pendingBonds: [IdentityAddress: Bond] = [:]

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
        /// Replace the record's fields, keeping its id and `addedAt`.
        case update
        /// Take what the accessory reports (advertised name, address type, descriptor, data
        /// channel, image, bonding, last seen) and keep what the user chose: id, `addedAt` and
        /// the display name (a `rename` survives setting the accessory up again).
        case refresh
        /// Leave it alone (migrating what is already there).
        case keep
    }

    /// Opens the store at `path` (nothing is read until the first access).
    /// - Parameters:
    ///   - path: the file; `nil`: ``defaultPath(environment:)``.
    ///   - lockTimeout: how long to wait for another process holding the lock (default 5 s).
    public init(path: String? = nil, lockTimeout: Duration = .seconds(5)) {
        let path = path ?? Self.defaultPath()
        self.path = path
        self.lockTimeout = lockTimeout
        self.core = StoreCore(path: path, lockTimeout: lockTimeout)
    }

    /// The store file a program uses: `explicit` (a `--store` flag) if given, else
    /// `$NEARBY_STORE` if set and not empty, else ``defaultPath(environment:)``.
    public static func path(_ explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let explicit { return explicit }
        if let fromEnvironment = environment["NEARBY_STORE"], !fromEnvironment.isEmpty { return fromEnvironment }
        return defaultPath(environment: environment)
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
        core.broadcaster.subscribe()
    }

    // MARK: - Reading

    /// Every stored accessory, in the order they were added.
    /// - Throws: ``AccessoryStoreError`` (damaged file, newer schema, I/O).
    public func list() async throws(AccessoryStoreError) -> [AccessoryRecord] {
        try await core.perform { core throws(AccessoryStoreError) in try core.read() }
    }

    /// The accessory with identifier `id`, or `nil`.
    public func record(id: String) async throws(AccessoryStoreError) -> AccessoryRecord? {
        try await list().first { $0.id == id }
    }

    /// The one accessory `query` designates, for `nearby range ACCESSORY` and friends. Tried in
    /// order, the first kind with any match wins:
    /// 1. the id (exact), 2. an id prefix of at least 4 digits, 3. the address
    /// (`AA:BB:CC:DD:EE:FF`, any case), 4. the display name (ignoring case), 5. the advertised
    /// name (ignoring case), 6. the start of the display name (ignoring case).
    /// - Throws: ``AccessoryStoreError/notFound(query:known:)`` listing what is stored,
    ///   ``AccessoryStoreError/ambiguous(query:matches:)`` naming the matches, or a file error.
    public func resolve(_ query: String) async throws(AccessoryStoreError) -> AccessoryRecord {
        try Self.resolve(query, in: try await list())
    }

    /// Re-reads the file and reports what another process changed since this instance last
    /// looked (the events are also delivered to ``events()``).
    @discardableResult
    public func reload() async throws(AccessoryStoreError) -> [AccessoryStoreEvent] {
        try await core.perform { core throws(AccessoryStoreError) in
            let before = core.snapshot
            let records = try core.readLocked()
            guard let before else { return [] }
            return AccessoryStoreEvent.difference(from: before, to: records)
        }
    }

    // MARK: - Changing

    /// Adds `record` (setup or migration).
    /// - Parameters:
    ///   - record: the accessory to store.
    ///   - ifPresent: what to do if an accessory with the same address is stored.
    /// - Returns: what happened (the stored record has a fresh id if `record.id` was taken).
    /// - Throws: ``AccessoryStoreError``.
    @discardableResult
    public func add(_ record: AccessoryRecord, ifPresent: ExistingPolicy = .update) async throws(AccessoryStoreError) -> AddOutcome {
        try await core.perform { core throws(AccessoryStoreError) in
            var outcome: AddOutcome?
            try core.modify { records throws(AccessoryStoreError) in
                if let index = records.firstIndex(where: { $0.address == record.address }) {
                    let previous = records[index]
                    switch ifPresent {
                    case .keep:
                        outcome = .alreadyStored(previous)
                    case .update, .refresh:
                        var updated = record
                        updated.id = previous.id
                        updated.addedAt = previous.addedAt
                        if ifPresent == .refresh { updated.displayName = previous.displayName }
                        // Keys are only ever removed on purpose (forget, re-pair), never by a setup.
                        if updated.bond == nil, let bond = previous.bond {
                            updated.bond = bond
                            updated.bonding = .bonded
                        }
                        if updated.bondHolder == nil, updated.bond == nil, previous.bondHolder != nil {
                            updated.bondHolder = previous.bondHolder
                            updated.bonding = .bonded
                        }
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
            case .added(let record): return .added(try core.stored(record.id))
            case .updated(let record, let previous): return .updated(try core.stored(record.id), previous: previous)
            case .alreadyStored(let record): return .alreadyStored(record)
            }
        }
    }

    /// Renames the accessory `query` designates (see ``resolve(_:)``).
    /// - Throws: ``AccessoryStoreError/invalidArgument(detail:)`` for an empty name, resolve errors.
    @discardableResult
    public func rename(_ query: String, to name: String) async throws(AccessoryStoreError) -> AccessoryRecord {
        let trimmed = name.trimmedWhitespace
        guard !trimmed.isEmpty else { throw .invalidArgument(detail: "the new name is empty") }
        return try await update(query) { $0.displayName = trimmed }
    }

    /// Records that the accessory `query` designates was seen at `date` (whole seconds).
    @discardableResult
    public func touch(_ query: String, at date: Date = Date()) async throws(AccessoryStoreError) -> AccessoryRecord {
        try await update(query) { $0.lastSeenAt = AccessoryRecord.wholeSeconds(date) }
    }

    /// Changes the accessory `query` designates with `body` (its id cannot change).
    @discardableResult
    public func update(_ query: String, _ body: @escaping @Sendable (inout AccessoryRecord) -> Void) async throws(AccessoryStoreError) -> AccessoryRecord {
        try await core.perform { core throws(AccessoryStoreError) in
            var id = ""
            try core.modify { records throws(AccessoryStoreError) in
                let target = try Self.resolve(query, in: records)
                let index = records.firstIndex { $0.id == target.id }!
                var record = records[index]
                body(&record)
                record.id = target.id
                records[index] = record
                id = target.id
            }
            return try core.stored(id)
        }
    }

    /// Removes the accessory `query` designates.
    /// - Returns: the removed record.
    @discardableResult
    public func forget(_ query: String) async throws(AccessoryStoreError) -> AccessoryRecord {
        try await core.perform { core throws(AccessoryStoreError) in
            var removed: AccessoryRecord?
            try core.modify { records throws(AccessoryStoreError) in
                let target = try Self.resolve(query, in: records)
                records.removeAll { $0.id == target.id }
                removed = target
            }
            return removed!
        }
    }

    // MARK: - Watching other processes

    /// Polls the file every `interval` and reports other processes' changes as events until
    /// ``stopWatching()``. Cheap: one `stat` per interval, a read only when the file changed.
    public func startWatching(interval: Duration = .seconds(1)) {
        guard watcher == nil else { return }
        let path = self.path
        // The identity is taken now, not when the task first runs: a change made right after
        // this call must be seen as a change.
        let initial = Self.fileIdentity(path)
        watcher = Task { [weak self] in
            var last = initial
            // Changes made between this instance's last access and now.
            _ = try? await self?.reload()
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
        core.broadcaster.finish()
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
            { !lowered.isEmpty && $0.displayName.lowercased().hasPrefix(lowered) },
        ]
        for tier in tiers {
            let matches = records.filter(tier)
            if matches.count == 1 { return matches[0] }
            if matches.count > 1 { throw .ambiguous(query: text, matches: matches.map(\.description)) }
        }
        throw .notFound(query: text, known: records.map(\.description))
    }
}
