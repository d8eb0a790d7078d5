#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
public import Synchronization

/// Lines for a file descriptor (standard output), gathered and written with one `write(2)` per
/// burst: the writer of a run appends every line an event makes and calls ``flush()`` once the
/// events that arrived together are handled, so a reader of a pipe sees each burst as soon as it
/// is complete and the process makes one system call for it, not one per line. A buffer that
/// grows past ``flushThreshold`` bytes is written at once (a replay at full speed).
///
/// Appending does not allocate once the buffer has grown to its working size. A short write
/// continues, EINTR retries; when the reader is gone (EPIPE) `brokenPipe` is called once and
/// later output is dropped. Thread-safe: appends and flushes are serialized.
public final class LineWriter: Sendable {
    /// Where the lines go.
    public let descriptor: Int32
    /// Bytes that make ``append(_:)`` write at once.
    public let flushThreshold: Int

    @usableFromInline
    struct State {
        @usableFromInline var buffer: [UInt8] = []
        /// Read times (``LatencyProbe/monotonicNow()``) of the updates in `buffer`, when a probe runs.
        @usableFromInline var stamps: [Double] = []
        @usableFromInline var broken = false

        @usableFromInline init() {}
    }

    @usableFromInline let state: Mutex<State>
    private let brokenPipe: @Sendable () -> Void
    @usableFromInline let probe: LatencyProbe?

    /// A writer for `descriptor`.
    /// - Parameters:
    ///   - descriptor: the file descriptor written to (not closed by the writer).
    ///   - flushThreshold: bytes after which an append writes at once (default 64 KiB).
    ///   - brokenPipe: called once when the reader of a pipe has gone away (EPIPE).
    public init(descriptor: Int32, flushThreshold: Int = 65_536, brokenPipe: @escaping @Sendable () -> Void = {}) {
        self.descriptor = descriptor
        self.flushThreshold = max(1, flushThreshold)
        self.brokenPipe = brokenPipe
        self.probe = LatencyProbe.shared
        var state = State()
        state.buffer.reserveCapacity(min(self.flushThreshold, 65_536) + 4096)
        self.state = Mutex(state)
    }

    /// `true` once a write found no reader (EPIPE).
    public var isBroken: Bool { state.withLock { $0.broken } }

    /// Appends `text` (the caller adds the newline).
    public func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes in append(bytes: UnsafeRawBufferPointer(bytes)) }
    }

    /// Appends raw bytes.
    public func append(bytes: UnsafeRawBufferPointer) {
        withBuffer { $0.append(contentsOf: bytes) }
    }

    /// Lets `body` append to the buffer in place (an encoder writing bytes, no intermediate
    /// string); writes at once if the buffer passed ``flushThreshold``.
    /// - Parameters:
    ///   - readAt: the read time of the sample whose update this is (for the latency
    ///     probe), `nil` for other lines.
    ///   - body: appends to the buffer; its result is returned.
    ///
    /// `@inlinable`: called once per line from other modules, it is specialized there for the
    /// body's result type instead of going through generic metadata per call.
    @inlinable
    public func withBuffer<Result>(readAt: Double? = nil, _ body: (inout [UInt8]) -> Result) -> Result {
        state.withLock { state in
            let result = body(&state.buffer)
            if probe != nil, let readAt { state.stamps.append(readAt) }
            if state.buffer.count >= flushThreshold { writeOut(&state) }
            return result
        }
    }

    /// Writes what was appended.
    public func flush() {
        state.withLock { state in
            guard !state.buffer.isEmpty else { return }
            writeOut(&state)
        }
    }

    @usableFromInline
    func writeOut(_ state: inout State) {
        defer {
            state.buffer.removeAll(keepingCapacity: true)
        }
        guard !state.broken else {
            state.stamps.removeAll(keepingCapacity: true)
            return
        }
        let failed = state.buffer.withUnsafeBytes { writeAll(descriptor, $0) } == EPIPE
        if failed {
            state.broken = true
            brokenPipe()
        }
        if let probe, !state.stamps.isEmpty {
            probe.recordLines(readAt: state.stamps, writtenAt: LatencyProbe.monotonicNow())
            state.stamps.removeAll(keepingCapacity: true)
        }
    }
}
