#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a text file line by line in constant memory (a fixed read buffer plus the current
/// line), counting lines from 1. Line terminators `\n` and `\r\n` are removed; a last line
/// without a terminator is returned too. Bytes that are not UTF-8 become U+FFFD.
///
/// ```swift
/// var reader = try LineReader(path: "trace.csv")
/// while let line = try reader.next() { print(line.number, line.text) }
/// ```
///
/// The file is closed when the reader is consumed or goes out of scope.
public struct LineReader: ~Copyable {
    /// One line of the file.
    public struct Line: Sendable, Hashable {
        /// 1-based line number.
        public var number: Int
        /// The text without its line terminator.
        public var text: String
    }

    /// The file's path, for messages.
    public let path: String
    /// Lines longer than this many bytes are an error (protects memory from a file that is not text).
    public let maximumLineLength: Int
    private var fd: Int32
    private var buffer: [UInt8]
    private var start = 0
    private var end = 0
    private var pending: [UInt8] = []
    private var lineNumber = 0
    private var atEnd = false

    /// Opens `path` for reading.
    /// - Parameters:
    ///   - path: the text file.
    ///   - bufferSize: bytes read per system call (default 64 KiB).
    ///   - maximumLineLength: bytes (default 1 MiB).
    /// - Throws: ``FileSystemError`` (operation "open") if the file cannot be opened, e.g. it does
    ///   not exist or is not readable, or is a directory.
    public init(path: String, bufferSize: Int = 65536, maximumLineLength: Int = 1 << 20) throws(FileSystemError) {
        self.path = path
        self.maximumLineLength = max(maximumLineLength, 1)
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileSystemError(path: path, operation: "open", errno: errno) }
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            throw FileSystemError(path: path, operation: "read (it is a directory)", errno: EISDIR)
        }
        self.fd = fd
        self.buffer = [UInt8](repeating: 0, count: max(bufferSize, 16))
    }

    deinit {
        if fd >= 0 { close(fd) }
    }

    /// The next line, or `nil` at the end of the file.
    /// - Throws: ``FileSystemError`` if reading fails or a line exceeds ``maximumLineLength``.
    public mutating func next() throws(FileSystemError) -> Line? {
        while true {
            // Look for a newline in the buffered bytes.
            if start < end {
                let newline = newlineInBuffer()
                if let newline {
                    try appendPending(buffer[start..<newline])
                    start = newline + 1
                    return makeLine()
                }
                try appendPending(buffer[start..<end])
                start = end
            }
            if atEnd {
                guard !pending.isEmpty else { return nil }
                return makeLine()
            }
            try fill()
        }
    }

    /// The next line as its bytes (without the line terminator), handed to `body` in place:
    /// no string is made and, for a line inside the read buffer, nothing is copied. `nil` at the
    /// end of the file.
    /// - Parameter body: gets the bytes (valid only during the call) and the 1-based line number.
    /// - Throws: ``FileSystemError`` if reading fails or a line exceeds ``maximumLineLength``;
    ///   what `body` throws.
    public mutating func nextBytes<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer, Int) throws(Failure) -> Result
    ) throws -> Result? {
        while true {
            if start < end {
                let newline = newlineInBuffer()
                if let newline {
                    if pending.isEmpty {
                        // The whole line is in the buffer: hand it over in place.
                        let lineStart = start
                        start = newline + 1
                        lineNumber += 1
                        var lineEnd = newline
                        if lineEnd > lineStart, buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                        let number = lineNumber
                        return try buffer.withUnsafeBytes { raw in
                            try body(UnsafeRawBufferPointer(rebasing: raw[lineStart..<lineEnd]), number)
                        }
                    }
                    try appendPending(buffer[start..<newline])
                    start = newline + 1
                    return try takePending(body)
                }
                try appendPending(buffer[start..<end])
                start = end
            }
            if atEnd {
                guard !pending.isEmpty else { return nil }
                return try takePending(body)
            }
            try fill()
        }
    }

    /// The index of the first newline in the buffered bytes (`start..<end`), if any.
    private func newlineInBuffer() -> Int? {
        buffer.withUnsafeBufferPointer { bytes -> Int? in
            var i = start
            while i < end {
                if bytes[i] == 0x0A { return i }
                i += 1
            }
            return nil
        }
    }

    private mutating func takePending<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer, Int) throws(Failure) -> Result
    ) throws -> Result {
        lineNumber += 1
        var count = pending.count
        if count > 0 && pending[count - 1] == 0x0D { count -= 1 }
        defer { pending.removeAll(keepingCapacity: true) }
        let number = lineNumber
        return try pending.withUnsafeBytes { raw in
            try body(UnsafeRawBufferPointer(rebasing: raw[0..<count]), number)
        }
    }

    /// Reads every line of `path` in order and passes it to `body`.
    /// - Throws: ``FileSystemError`` from opening or reading, or whatever `body` throws.
    public static func forEachLine(in path: String, _ body: (Line) throws -> Void) throws {
        var reader = try LineReader(path: path)
        while let line = try reader.next() { try body(line) }
    }

    private mutating func appendPending(_ bytes: ArraySlice<UInt8>) throws(FileSystemError) {
        if pending.count + bytes.count > maximumLineLength {
            throw FileSystemError(
                path: path, operation: "read line \(lineNumber + 1) (longer than \(maximumLineLength) bytes; is this a text file?) of",
                errno: EFBIG)
        }
        pending.append(contentsOf: bytes)
    }

    private mutating func makeLine() -> Line {
        lineNumber += 1
        var count = pending.count
        if count > 0 && pending[count - 1] == 0x0D { count -= 1 }
        let text = String(decoding: pending[0..<count], as: UTF8.self)
        pending.removeAll(keepingCapacity: true)
        return Line(number: lineNumber, text: text)
    }

    private mutating func fill() throws(FileSystemError) {
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw FileSystemError(path: path, operation: "read", errno: errno)
            }
            start = 0
            end = n
            if n == 0 { atEnd = true }
            return
        }
    }
}
