#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file-system operation failed. `description` names the path, the operation and the fix.
public struct FileSystemError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path the operation was about.
    public var path: String
    /// What was being done ("write", "rename", "lock", ...).
    public var operation: String
    /// The `errno` value, 0 if not from a system call.
    public var errno: Int32

    /// Creates an error.
    public init(path: String, operation: String, errno: Int32) {
        self.path = path
        self.operation = operation
        self.errno = errno
    }

    public var description: String {
        let reason = errno == 0 ? "failed" : String(cString: strerror(errno))
        var text = "cannot \(operation) \(path): \(reason)"
        switch errno {
        case EACCES, EPERM: text += " (check the permissions of the file and its directory)"
        case ENOSPC: text += " (the disk is full)"
        case EROFS: text += " (the file system is read-only; choose another path)"
        default: break
        }
        return text
    }
}

/// Reads and writes whole files atomically: a reader sees the old or the new content, never a
/// mix, even if the process dies mid-write. New files get mode 0600 (state files may hold
/// accessory identities).
public enum AtomicFile {
    /// Writes `bytes` to `path` atomically: a temporary file in the same directory, `fsync`,
    /// `rename` over the target, `fsync` of the directory. Missing parent directories are created
    /// with mode 0700.
    /// - Parameters:
    ///   - bytes: the whole new content.
    ///   - path: the file to replace or create.
    ///   - mode: permission bits of the file, 0600 by default.
    /// - Throws: ``FileSystemError`` naming the step that failed; the old file is left untouched.
    public static func write(_ bytes: [UInt8], to path: String, permissions mode: UInt32 = 0o600) throws(FileSystemError) {
        let directory = parentDirectory(of: path)
        try createDirectories(directory)
        var template = Array((path + ".tmp-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw FileSystemError(path: path, operation: "create a temporary file for", errno: Glibc.errno) }
        let tempPath = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var ok = false
        defer {
            if !ok { unlink(tempPath) }
        }
        guard fchmod(fd, mode_t(mode)) == 0 else {
            let e = Glibc.errno
            close(fd)
            throw FileSystemError(path: path, operation: "set the mode of", errno: e)
        }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { raw in
                Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
            }
            if n < 0 {
                if Glibc.errno == EINTR { continue }
                let e = Glibc.errno
                close(fd)
                throw FileSystemError(path: path, operation: "write", errno: e)
            }
            offset += n
        }
        guard fsync(fd) == 0 else {
            let e = Glibc.errno
            close(fd)
            throw FileSystemError(path: path, operation: "flush", errno: e)
        }
        close(fd)
        guard rename(tempPath, path) == 0 else {
            throw FileSystemError(path: path, operation: "replace", errno: Glibc.errno)
        }
        ok = true
        let dirfd = open(directory, O_RDONLY | O_DIRECTORY)
        if dirfd >= 0 {
            fsync(dirfd)
            close(dirfd)
        }
    }

    /// Writes a UTF-8 string atomically; see ``write(_:to:permissions:)``.
    public static func write(_ text: String, to path: String, permissions mode: UInt32 = 0o600) throws(FileSystemError) {
        try write(Array(text.utf8), to: path, permissions: mode)
    }

    /// Reads a whole file. Returns `nil` if it does not exist.
    /// - Throws: ``FileSystemError`` for any other failure (permissions, I/O).
    public static func read(_ path: String) throws(FileSystemError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if Glibc.errno == ENOENT { return nil }
            throw FileSystemError(path: path, operation: "open", errno: Glibc.errno)
        }
        defer { close(fd) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            if n < 0 {
                if Glibc.errno == EINTR { continue }
                throw FileSystemError(path: path, operation: "read", errno: Glibc.errno)
            }
            if n == 0 { break }
            result.append(contentsOf: chunk[0..<n])
        }
        return result
    }

    /// Creates `path` and its missing parents with `mode` (0700 by default).
    public static func createDirectories(_ path: String, permissions mode: UInt32 = 0o700) throws(FileSystemError) {
        if path.isEmpty || path == "/" || path == "." { return }
        var info = stat()
        if stat(path, &info) == 0 {
            if (info.st_mode & S_IFMT) == S_IFDIR { return }
            throw FileSystemError(path: path, operation: "use as a directory", errno: ENOTDIR)
        }
        try createDirectories(parentDirectory(of: path), permissions: mode)
        if mkdir(path, mode_t(mode)) != 0 && Glibc.errno != EEXIST {
            throw FileSystemError(path: path, operation: "create directory", errno: Glibc.errno)
        }
    }

    /// The directory part of `path` ("." for a bare file name).
    public static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }
}
