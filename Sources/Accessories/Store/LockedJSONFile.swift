import Foundation
import NearbySupport

/// A small JSON state file kept beside the accessory store (``HostIdentityStore``,
/// ``UWBAddressStore``): read, and changed under the lock file `PATH.lock`, written atomically
/// with mode 0600 (pretty-printed, sorted keys, a final newline). Blocking: call it off
/// Swift's cooperative threads when that matters.
struct LockedJSONFile<Contents: Codable>: Sendable {
    /// The file.
    let path: String

    /// Why the file could not be used.
    enum Failure: Error {
        /// The directory, the lock or reading failed (the file system's words, naming the path).
        case unusable(String)
        /// The file is there but is not the expected JSON.
        case damaged(String)
        /// Writing the changed contents failed.
        case writeFailed(String)
    }

    /// The contents; `nil` when there is no file yet.
    /// - Throws: ``Failure/unusable(_:)`` or ``Failure/damaged(_:)``.
    func read() throws(Failure) -> Contents? {
        let bytes: [UInt8]?
        do {
            bytes = try AtomicFile.read(path)
        } catch {
            throw .unusable("\(error)")
        }
        guard let bytes else { return nil }
        do {
            return try JSONDecoder().decode(Contents.self, from: Data(bytes))
        } catch {
            throw .damaged("\(error)")
        }
    }

    /// Under the lock: reads the contents (`empty` when there is no file), lets `change` read
    /// and change them, and writes them back when `change` changed them.
    /// - Returns: what `change` returns.
    /// - Throws: ``Failure``; nothing is written when reading fails.
    func update<Result>(empty: Contents, _ change: (inout Contents) -> (result: Result, changed: Bool)) throws(Failure) -> Result {
        let lock: FileLock
        do {
            try AtomicFile.createDirectories(AtomicFile.parentDirectory(of: path))
            lock = try FileLock(path: path + ".lock")
        } catch {
            throw .unusable("\(error)")
        }
        defer { lock.unlock() }
        var contents = try read() ?? empty
        let (result, changed) = change(&contents)
        guard changed else { return result }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            try AtomicFile.write(Array(try encoder.encode(contents)) + [0x0A], to: path)
        } catch {
            throw .writeFailed("writing \(path): \(error)")
        }
        return result
    }
}
