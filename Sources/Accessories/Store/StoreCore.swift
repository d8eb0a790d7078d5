import Dispatch
import Foundation
import NearbySupport
#if canImport(Glibc)
import Glibc
#endif

/// The file side of ``AccessoryStore``: reads, locks, writes and event publication, confined to
/// one serial dispatch queue (blocking calls never run on Swift's cooperative threads).
final class StoreCore: @unchecked Sendable {
    // @unchecked: every mutable property is only touched on `queue` (through `perform`).
    let path: String
    let lockTimeout: Duration
    let broadcaster = Broadcaster<AccessoryStoreEvent>()
    /// The records as last read or written by this instance (`nil` before the first access).
    var snapshot: [AccessoryRecord]?
    private let queue = DispatchQueue(label: "nearby.accessory-store")

    init(path: String, lockTimeout: Duration) {
        self.path = path
        self.lockTimeout = lockTimeout
    }

    var lockPath: String { path + ".lock" }

    /// Runs `body` on the queue, in call order.
    func perform<T: Sendable>(_ body: @escaping @Sendable (StoreCore) throws(AccessoryStoreError) -> T) async throws(AccessoryStoreError) -> T {
        let result: Result<T, AccessoryStoreError> = await withCheckedContinuation { continuation in
            queue.async {
                do throws(AccessoryStoreError) {
                    continuation.resume(returning: .success(try body(self)))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }

    func stored(_ id: String) throws(AccessoryStoreError) -> AccessoryRecord {
        guard let record = snapshot?.first(where: { $0.id == id }) else {
            throw .notFound(query: id, known: (snapshot ?? []).map(\.description))
        }
        return record
    }

    /// Reads for a query: no file, no lock needed (and no directory created).
    func read() throws(AccessoryStoreError) -> [AccessoryRecord] {
        if access(path, F_OK) != 0 && errno == ENOENT {
            publish(from: snapshot, to: [])
            snapshot = []
            return []
        }
        return try readLocked()
    }

    /// Reads under the lock (the lock guards moving a damaged file aside). If the lock file
    /// cannot be created (read-only directory), reads without it.
    func readLocked() throws(AccessoryStoreError) -> [AccessoryRecord] {
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
    func modify(_ change: (inout [AccessoryRecord]) throws(AccessoryStoreError) -> Void) throws(AccessoryStoreError) {
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

    func publish(from old: [AccessoryRecord]?, to new: [AccessoryRecord]) {
        guard let old else { return }
        for event in AccessoryStoreEvent.difference(from: old, to: new) { broadcaster.yield(event) }
    }

    /// Reads and decodes the file; a missing file is an empty store. Call with the lock held.
    func load() throws(AccessoryStoreError) -> [AccessoryRecord] {
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
    func moveAside() throws(AccessoryStoreError) -> String {
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

}
