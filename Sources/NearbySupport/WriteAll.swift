#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes every byte of `bytes` to `descriptor` with `write(2)`, again after a partial write or
/// an interruption (EINTR).
/// - Returns: `nil` once everything is written, else the `errno` of the write that failed
///   (`EPIPE`: the reader went away); 0 if `write` wrote nothing without an error.
public func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
    guard let base = bytes.baseAddress else { return nil }
    var offset = 0
    while offset < bytes.count {
        let written = write(descriptor, base + offset, bytes.count - offset)
        if written > 0 {
            offset += written
        } else if written < 0, errno == EINTR {
            continue
        } else {
            return written < 0 ? errno : 0
        }
    }
    return nil
}
