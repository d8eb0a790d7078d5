#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An advisory lock on a lock file (`flock`), held until ``unlock()`` or deinit.
///
/// Used so two `nearby` processes never interleave read-modify-write cycles on a state file:
/// take the lock on `<file>.lock`, read, modify, write with ``AtomicFile``, unlock.
public final class FileLock: @unchecked Sendable {
    private var fd: Int32
    /// The lock file's path.
    public let path: String

    /// Opens (creating with mode 0600) `path` and takes an exclusive lock, waiting up to
    /// `timeout` for another holder to release it.
    /// - Throws: ``FileSystemError`` if the file cannot be opened, or with `operation` "lock"
    ///   and `EWOULDBLOCK` if another process holds the lock past the timeout.
    public init(path: String, timeout: Duration = .seconds(5)) throws(FileSystemError) {
        self.path = path
        try AtomicFile.createDirectories(AtomicFile.parentDirectory(of: path))
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw FileSystemError(path: path, operation: "open lock file", errno: Glibc.errno) }
        self.fd = fd
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let e = Glibc.errno
            guard e == EWOULDBLOCK || e == EINTR else {
                close(fd)
                self.fd = -1
                throw FileSystemError(path: path, operation: "lock", errno: e)
            }
            if clock.now >= deadline {
                close(fd)
                self.fd = -1
                throw FileSystemError(path: path, operation: "lock (another nearby process holds it)", errno: EWOULDBLOCK)
            }
            usleep(5_000)
        }
    }

    /// Releases the lock. Safe to call twice.
    public func unlock() {
        if fd >= 0 {
            flock(fd, LOCK_UN)
            close(fd)
            fd = -1
        }
    }

    deinit { unlock() }
}
