import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Reads standard input on a thread of its own (never a cooperative one), with `poll` so it
/// can stop; hands each chunk to `handle`.
public final class InputReader: Sendable {
    private let stopped = Atomic<Bool>(false)

    /// Starts reading; `handle` gets each chunk read, `onEnd` is called at end of input.
    public init(_ handle: @escaping @Sendable ([UInt8]) -> Void, onEnd: @escaping @Sendable () -> Void) {
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 256)
            while !stopped.load(ordering: .relaxed) {
                var descriptor = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
                let ready = poll(&descriptor, 1, 100)
                if ready < 0 && errno == EINTR { continue }
                if ready <= 0 { continue }
                let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress!, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 {
                    onEnd()
                    return
                }
                handle(Array(buffer[0..<count]))
            }
        }
        thread.start()
    }

    /// Stops reading (within 100 ms).
    public func stop() { stopped.store(true, ordering: .relaxed) }
}
