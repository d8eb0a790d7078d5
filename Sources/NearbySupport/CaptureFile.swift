#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A packet capture file that stays within a size: `--uci-log` (pcapng) and `--hci-log`
/// (btsnoop) write through it.
///
/// - Mode 0600 (a capture shows everything the host and the device said), also when the file
///   existed with another mode.
/// - Every file starts with ``header`` (the format's file header), so each rotated file is a
///   capture of its own that Wireshark opens.
/// - Size cap and rotation: when the next record would take the file past ``maximumBytes``,
///   `FILE` becomes `FILE.1` (`FILE.1` becomes `FILE.2`, ...; at most ``keptFiles`` old files are
///   kept, the oldest is removed) and a new `FILE` starts. Disk use stays below
///   `maximumBytes × (keptFiles + 1)`.
/// - A failed write (full disk, file-size limit, I/O error) never throws and never traps: the
///   record is counted in ``Statistics/recordsLost``, the first failure is kept in
///   ``Statistics/failure`` and handed once to `onFailure`; later records try again, so the
///   capture resumes when space is freed (``Statistics/resumed`` counts that).
///
/// Thread-safe: transports call ``write(_:)`` from their reader and writer tasks.
public final class CaptureFile: Sendable {
    /// What was written and what was lost.
    public struct Statistics: Sendable, Hashable {
        /// Records written (over all rotated files).
        public var recordsWritten = 0
        /// Records that could not be written.
        public var recordsLost = 0
        /// Bytes written, headers included.
        public var bytesWritten = 0
        /// How many times the file was rotated.
        public var rotations = 0
        /// How many times writing worked again after a failure.
        public var resumed = 0
        /// The first write failure, if any.
        public var failure: FileSystemError?
    }

    /// The capture's path (the current file).
    public let path: String
    /// The format's file header, written at the start of every file.
    public let header: [UInt8]
    /// The size at which the file is rotated, bytes (at least the header plus one record).
    public let maximumBytes: Int
    /// How many rotated files (`FILE.1` ... `FILE.N`) are kept.
    public let keptFiles: Int

    private struct State {
        var fd: Int32 = -1
        var size = 0
        var failing = false
        /// The header is still to be written (it did not fit when the file was made).
        var headerPending = false
        var statistics = Statistics()
    }

    private let state = Mutex(State())
    private let onFailure: @Sendable (FileSystemError) -> Void

    /// Creates (or truncates) the capture file and writes the header. A header that cannot be
    /// written (a full disk) is not an error: it is reported like any failed write and written
    /// before the next record that fits.
    /// - Parameters:
    ///   - path: the capture file; rotated copies are named after it.
    ///   - header: the bytes that start every file (the pcapng or btsnoop header).
    ///   - limits: when to rotate and how many old files to keep.
    ///   - onFailure: called once, with the first write failure (from the writing thread).
    /// - Throws: ``FileSystemError`` if the file cannot be created (a missing directory, no
    ///   permission).
    public init(
        path: String, header: [UInt8], limits: CaptureLimits = CaptureLimits(),
        onFailure: @escaping @Sendable (FileSystemError) -> Void = { _ in }
    ) throws(FileSystemError) {
        self.path = path
        self.header = header
        self.maximumBytes = max(limits.maximumBytes, header.count + 64)
        self.keptFiles = max(0, limits.keptFiles)
        self.onFailure = onFailure
        let fd = try Self.create(path)
        let failure: FileSystemError? = state.withLock { state in
            state.fd = fd
            if let errno = Self.writeAll(fd, header) {
                _ = ftruncate(fd, 0)
                _ = lseek(fd, 0, SEEK_SET)
                state.headerPending = true
                state.failing = true
                let error = FileSystemError(path: path, operation: "write the header of", errno: errno)
                state.statistics.failure = error
                return error
            }
            state.size = header.count
            state.statistics.bytesWritten = header.count
            return nil
        }
        if let failure { onFailure(failure) }
    }

    deinit {
        state.withLock { state in
            if state.fd >= 0 { Glibc.close(state.fd) }
        }
    }

    /// What was written, lost and rotated so far.
    public var statistics: Statistics { state.withLock { $0.statistics } }

    /// Appends one record (whole, or not at all as far as the count goes); rotates first when
    /// it would not fit. Never throws: failures are counted and reported (see the type).
    public func write(_ record: [UInt8]) {
        let failure: FileSystemError? = state.withLock { state in
            guard state.fd >= 0 else {
                state.statistics.recordsLost += 1
                return nil
            }
            if state.headerPending {
                if let errno = Self.writeAll(state.fd, header) {
                    _ = ftruncate(state.fd, 0)
                    _ = lseek(state.fd, 0, SEEK_SET)
                    return lose(&state, FileSystemError(path: path, operation: "write the header of", errno: errno))
                }
                state.headerPending = false
                state.size = header.count
                state.statistics.bytesWritten += header.count
            }
            if record.count > maximumBytes - state.size, state.size > header.count {
                if let error = rotate(&state) { return lose(&state, error) }
            }
            if let errno = Self.writeAll(state.fd, record) {
                // Cut a partly written record off, so that the records after it stay readable.
                _ = ftruncate(state.fd, off_t(state.size))
                _ = lseek(state.fd, off_t(state.size), SEEK_SET)
                return lose(&state, FileSystemError(path: path, operation: "write", errno: errno))
            }
            if state.failing {
                state.failing = false
                state.statistics.resumed += 1
            }
            state.size += record.count
            state.statistics.recordsWritten += 1
            state.statistics.bytesWritten += record.count
            return nil
        }
        if let failure { onFailure(failure) }
    }

    /// Closes the file; later records are counted as lost. Idempotent.
    public func close() {
        state.withLock { state in
            if state.fd >= 0 { Glibc.close(state.fd) }
            state.fd = -1
        }
    }

    /// Counts a lost record; returns the failure to report if it is the first one.
    private func lose(_ state: inout State, _ error: FileSystemError) -> FileSystemError? {
        state.statistics.recordsLost += 1
        state.failing = true
        guard state.statistics.failure == nil else { return nil }
        state.statistics.failure = error
        return error
    }

    /// Shifts `FILE.n` -> `FILE.n+1` (dropping the oldest), `FILE` -> `FILE.1`, starts a new file.
    private func rotate(_ state: inout State) -> FileSystemError? {
        Glibc.close(state.fd)
        state.fd = -1
        if keptFiles == 0 {
            unlink(path)
        } else {
            unlink("\(path).\(keptFiles)")
            for index in stride(from: keptFiles - 1, through: 1, by: -1) {
                rename("\(path).\(index)", "\(path).\(index + 1)")
            }
            rename(path, "\(path).1")
        }
        let fd: Int32
        do {
            fd = try Self.create(path)
        } catch {
            return error
        }
        state.fd = fd
        state.size = 0
        state.statistics.rotations += 1
        if let errno = Self.writeAll(fd, header) {
            _ = ftruncate(fd, 0)
            _ = lseek(fd, 0, SEEK_SET)
            state.headerPending = true
            return FileSystemError(path: path, operation: "write the header of", errno: errno)
        }
        state.size = header.count
        state.statistics.bytesWritten += header.count
        return nil
    }

    private static func create(_ path: String) throws(FileSystemError) -> Int32 {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw FileSystemError(path: path, operation: "create", errno: errno) }
        var info = stat()
        if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_mode & 0o777 != 0o600 {
            // An existing file keeps its mode through O_CREAT: tighten it.
            guard fchmod(fd, 0o600) == 0 else {
                let error = errno
                Glibc.close(fd)
                throw FileSystemError(path: path, operation: "set the mode (0600) of", errno: error)
            }
        }
        return fd
    }

    /// Writes all of `bytes`; returns the `errno` of a failure (a short write that cannot
    /// continue is `ENOSPC`).
    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if n == 0 { return ENOSPC }
            offset += n
        }
        return nil
    }
}
