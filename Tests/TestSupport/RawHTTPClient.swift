import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// An HTTP/1.1 response as bytes arrived: status, headers (names lower-cased), body.
public struct RawHTTPResponse: Sendable {
    /// The status code.
    public var status: Int
    /// Header values by lower-cased name (the last one for repeated names).
    public var headers: [String: String]
    /// The body (de-chunked).
    public var body: String
}

/// One server-sent event: its `event` name and `data`.
public struct RawServerSentEvent: Sendable {
    /// The event name (`message` when none was given).
    public var name: String
    /// The data lines, joined by newlines.
    public var data: String

    /// `data` parsed as a JSON object.
    public func object() throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any] else {
            throw ChildProcessError("event \(name): data is not a JSON object: \(data)")
        }
        return object
    }
}

/// A raw HTTP client for tests of the web view: its own socket and reader thread, no code of
/// the package under test, and a reader that can be paused (a browser that stops reading).
public final class RawHTTPClient: Sendable {
    private let fd: Int32
    private let shared = Shared()

    private struct State {
        var bytes: [UInt8] = []
        var consumed = 0
        var closed = false
        var paused = false
        var descriptorOpen = true
    }

    private final class Shared: Sendable {
        let mutex = Mutex(State())
        func withLock<T>(_ body: (inout State) -> T) -> T { mutex.withLock { body(&$0) } }
    }

    /// Connects to 127.0.0.1:`port`.
    /// - Parameters:
    ///   - receiveBuffer: `SO_RCVBUF` in bytes before connecting (small: the kernel holds little
    ///     of what the server sends while the reader is paused).
    ///   - paused: start with the reader paused (see ``resume()``).
    public init(port: Int, receiveBuffer: Int? = nil, paused: Bool = false) throws {
        fd = try connectTCP(port: port) { fd in
            if var size = receiveBuffer.map(Int32.init) {
                setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            }
        }
        shared.withLock { $0.paused = paused }
        let thread = Thread { [fd, shared] in Self.readLoop(fd: fd, shared: shared) }
        thread.start()
    }

    deinit { close() }

    /// Sends a request: `GET path HTTP/1.1` with `Host: 127.0.0.1:PORT` unless `headers` has a
    /// Host, then `body` as it is.
    public func send(_ method: String = "GET", _ path: String, port: Int, headers: [(String, String)] = [], body: String = "") {
        var text = "\(method) \(path) HTTP/1.1\r\n"
        if !headers.contains(where: { $0.0.lowercased() == "host" }) { text += "Host: 127.0.0.1:\(port)\r\n" }
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        text += "\r\n" + body
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Reads one whole response (Content-Length or chunked body; none for HEAD).
    public func response(head: Bool = false, timeout: Duration = .seconds(20)) async throws -> RawHTTPResponse {
        let (status, headers) = try await responseHead(timeout: timeout)
        if head { return RawHTTPResponse(status: status, headers: headers, body: "") }
        if let length = headers["content-length"].flatMap(Int.init) {
            let body = try await take(length, timeout: timeout)
            return RawHTTPResponse(status: status, headers: headers, body: String(decoding: body, as: UTF8.self))
        }
        var body: [UInt8] = []
        while true {
            let sizeLine = try await line(timeout: timeout)
            guard let size = Int(sizeLine.split(separator: ";").first ?? "", radix: 16) else {
                throw ChildProcessError("bad chunk size line '\(sizeLine)'")
            }
            if size == 0 {
                _ = try await line(timeout: timeout)
                return RawHTTPResponse(status: status, headers: headers, body: String(decoding: body, as: UTF8.self))
            }
            body += try await take(size, timeout: timeout)
            _ = try await line(timeout: timeout)
        }
    }

    /// Reads a response's status line and headers (then read a stream with ``nextEvent(timeout:)``).
    public func responseHead(timeout: Duration = .seconds(20)) async throws -> (status: Int, headers: [String: String]) {
        let statusLine = try await line(timeout: timeout)
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw ChildProcessError("not an HTTP status line: '\(statusLine)'")
        }
        var headers: [String: String] = [:]
        while true {
            let header = try await line(timeout: timeout)
            if header.isEmpty { break }
            guard let colon = header.firstIndex(of: ":") else { throw ChildProcessError("bad header line '\(header)'") }
            headers[header[..<colon].lowercased()] = header[header.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        chunked = headers["transfer-encoding"]?.lowercased() == "chunked"
        return (status, headers)
    }

    private let chunkedState = Mutex(false)
    private var chunked: Bool {
        get { chunkedState.withLock { $0 } }
        set { chunkedState.withLock { $0 = newValue } }
    }
    private let streamBuffer = Mutex<(bytes: [UInt8], offset: Int)>(([], 0))

    /// The next server-sent event of a stream whose head was read (comments skipped).
    public func nextEvent(timeout: Duration = .seconds(20)) async throws -> RawServerSentEvent {
        while true {
            if let event = takeEvent() { return event }
            try await fillStream(timeout: timeout)
        }
    }

    /// Events until one named `name` (included).
    public func events(until name: String, timeout: Duration = .seconds(20)) async throws -> [RawServerSentEvent] {
        var events: [RawServerSentEvent] = []
        while true {
            let event = try await nextEvent(timeout: timeout)
            events.append(event)
            if event.name == name { return events }
        }
    }

    private func takeEvent() -> RawServerSentEvent? {
        streamBuffer.withLock { buffer in
            while true {
                let available = buffer.bytes[buffer.offset...]
                guard let end = Self.find([10, 10], in: available) else { return nil }
                let block = String(decoding: available.prefix(end), as: UTF8.self)
                buffer.offset += end + 2
                if buffer.offset > 65536 {
                    buffer.bytes.removeFirst(buffer.offset)
                    buffer.offset = 0
                }
                var name = "message"
                var data: [String] = []
                for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
                    if line.hasPrefix(":") { continue }
                    if line.hasPrefix("event:") { name = line.dropFirst(6).trimmingCharacters(in: .whitespaces) }
                    if line.hasPrefix("data:") { data.append(String(line.dropFirst(5).drop { $0 == " " })) }
                }
                if data.isEmpty { continue }  // a comment or retry-only block
                return RawServerSentEvent(name: name, data: data.joined(separator: "\n"))
            }
        }
    }

    private func fillStream(timeout: Duration) async throws {
        if chunked {
            let sizeLine = try await line(timeout: timeout)
            guard let size = Int(sizeLine.split(separator: ";").first ?? "", radix: 16) else {
                throw ChildProcessError("bad chunk size line '\(sizeLine)'")
            }
            if size == 0 { throw ChildProcessError("the stream ended") }
            let bytes = try await take(size, timeout: timeout)
            _ = try await line(timeout: timeout)
            streamBuffer.withLock { $0.bytes += bytes }
        } else {
            let bytes = try await take(1, timeout: timeout)
            streamBuffer.withLock { $0.bytes += bytes }
        }
    }

    /// Stops reading from the socket (the kernel's buffers fill, then the server's).
    public func pause() { shared.withLock { $0.paused = true } }

    /// Reads again.
    public func resume() { shared.withLock { $0.paused = false } }

    /// `true` once the server closed the connection and everything was consumed.
    public var isClosed: Bool { shared.withLock { $0.closed && $0.consumed == $0.bytes.count } }

    /// Bytes received so far.
    public var received: Int { shared.withLock { $0.bytes.count } }

    /// Closes the connection at once (RST when data is unread: a browser tab closed mid-stream).
    public func close() {
        shared.withLock { state in
            guard state.descriptorOpen else { return }
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
            shutdown(fd, Int32(SHUT_RDWR))
            state.paused = false
        }
    }

    private func line(timeout: Duration) async throws -> String {
        try await wait(timeout: timeout, what: "a line") { state in
            let available = state.bytes[state.consumed...]
            guard let end = Self.find([13, 10], in: available) else { return nil }
            let line = String(decoding: available.prefix(end), as: UTF8.self)
            state.consumed += end + 2
            return line
        }
    }

    private func take(_ count: Int, timeout: Duration) async throws -> [UInt8] {
        try await wait(timeout: timeout, what: "\(count) bytes") { state in
            guard state.bytes.count - state.consumed >= count else { return nil }
            defer { state.consumed += count }
            return Array(state.bytes[state.consumed..<(state.consumed + count)])
        }
    }

    private func wait<T>(timeout: Duration, what: String, _ attempt: (inout State) -> T?) async throws -> T {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while true {
            let (value, closed) = shared.withLock { state in (attempt(&state), state.closed) }
            if let value { return value }
            if closed { throw ChildProcessError("the server closed the connection before \(what) arrived") }
            if clock.now >= deadline { throw ChildProcessError("no \(what) within \(timeout)") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// The offset of `needle` (2 bytes) from the start of `bytes`, without copying.
    private static func find<C: RandomAccessCollection<UInt8>>(_ needle: [UInt8], in bytes: C) -> Int? where C.Index == Int {
        guard bytes.count >= 2 else { return nil }
        var i = bytes.startIndex
        while i < bytes.endIndex - 1 {
            if bytes[i] == needle[0] && bytes[i + 1] == needle[1] { return i - bytes.startIndex }
            i += 1
        }
        return nil
    }

    private static func readLoop(fd: Int32, shared: Shared) {
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            if shared.withLock({ $0.paused }) {
                usleep(2000)
                continue
            }
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 {
                if count < 0, errno == EINTR { continue }
                break
            }
            shared.withLock { $0.bytes += chunk[0..<count] }
        }
        shared.withLock { state in
            state.closed = true
            state.descriptorOpen = false
            Glibc.close(fd)
        }
    }
}

extension RawHTTPClient {
    /// One request on a new connection, its response, then the connection is closed.
    public static func request(
        _ path: String, method: String = "GET", port: Int, headers: [(String, String)] = [], timeout: Duration = .seconds(20)
    ) async throws -> RawHTTPResponse {
        let client = try RawHTTPClient(port: port)
        defer { client.close() }
        client.send(method, path, port: port, headers: headers + [("Connection", "close")])
        return try await client.response(head: method == "HEAD", timeout: timeout)
    }
}
