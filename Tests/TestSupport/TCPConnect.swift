#if canImport(Glibc)
import Glibc
#endif

/// A TCP socket connected to `host`:`port` (IPv4), for the raw test clients.
/// - Parameter prepare: called with the socket before it connects (socket options).
/// - Throws: ``ChildProcessError`` with errno when it cannot connect.
public func connectTCP(host: String = "127.0.0.1", port: Int, prepare: (Int32) -> Void = { _ in }) throws -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw ChildProcessError("socket() failed: errno \(errno)") }
    prepare(fd)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = inet_addr(host)
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else {
        let code = errno
        close(fd)
        throw ChildProcessError("cannot connect to \(host):\(port): errno \(code)")
    }
    return fd
}
