import NIOCore

/// Where the web view listens: `--web [ADDRESS:]PORT`.
///
/// `8080` is `127.0.0.1:8080` (this machine only). Another address only when given: an IPv4
/// literal (`0.0.0.0:8080`, `192.168.1.20:8080`), an IPv6 literal in brackets (`[::1]:8080`,
/// `[::]:8080`), or `localhost` (`127.0.0.1`). Port 0 takes any free port (the view prints the
/// one it got). Host names other than `localhost` are refused: a name may resolve to an address
/// nobody meant to expose.
public struct WebAddress: Sendable, Hashable, CustomStringConvertible {
    /// The IP address literal to bind (`127.0.0.1`, `::1`, `0.0.0.0`).
    public var host: String
    /// The TCP port, 0 for any free port.
    public var port: Int

    /// The default address for a port: `127.0.0.1`.
    public static let loopback = "127.0.0.1"

    /// Creates an address from a literal host and a port (see ``init(parsing:)`` for the rules).
    /// - Throws: ``WebError`` `invalidAddress` if `host` is not an IP literal or the port is out of range.
    public init(host: String, port: Int) throws(WebError) {
        guard (0...65535).contains(port) else {
            throw WebError(.invalidAddress, "port \(port) is out of range; use 1-65535 (or 0 for any free port)")
        }
        let literal = host == "localhost" ? Self.loopback : host
        guard Self.isIPv4(literal) || Self.isIPv6(literal) else {
            throw WebError(
                .invalidAddress,
                "'\(host)' is not an IP address; give one, e.g. 127.0.0.1 (this machine), 0.0.0.0 (every interface) or [::1]")
        }
        self.host = literal
        self.port = port
    }

    /// Parses `[ADDRESS:]PORT`.
    /// - Throws: ``WebError`` `invalidAddress` with the accepted forms.
    public init(parsing text: String) throws(WebError) {
        let forms = "write PORT (127.0.0.1), ADDRESS:PORT or [IPv6]:PORT, e.g. 8080, 0.0.0.0:8080 or [::1]:8080"
        var host = Self.loopback
        var portText = Substring(text)
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw WebError(.invalidAddress, "'\(text)' is not an address; \(forms)")
            }
            host = String(text[text.index(after: text.startIndex)..<close])
            portText = text[text.index(close, offsetBy: 2)...]
        } else if let colon = text.lastIndex(of: ":") {
            host = String(text[..<colon])
            portText = text[text.index(after: colon)...]
            if host.contains(":") {
                throw WebError(.invalidAddress, "'\(text)': put an IPv6 address in brackets; \(forms)")
            }
        }
        guard !portText.isEmpty, portText.allSatisfy(\.isASCII), portText.allSatisfy(\.isNumber), portText.count <= 5, let port = Int(portText) else {
            throw WebError(.invalidAddress, "'\(text)' has no port number; \(forms)")
        }
        try self.init(host: host, port: port)
    }

    /// `true` for 127.0.0.0/8 and ::1 (and IPv4-mapped loopback): only this machine can connect.
    public var isLoopback: Bool {
        if Self.isIPv4(host) { return host.hasPrefix("127.") }
        guard let address = try? SocketAddress(ipAddress: host, port: 0), let text = address.ipAddress else { return false }
        return text == "::1" || text.hasPrefix("::ffff:127.")
    }

    /// `true` for 0.0.0.0 and `::` (every interface).
    public var isUnspecified: Bool {
        if Self.isIPv4(host) { return host == "0.0.0.0" }
        return (try? SocketAddress(ipAddress: host, port: 0))?.ipAddress == "::"
    }

    /// `127.0.0.1:8080`, `[::1]:8080`.
    public var description: String { Self.isIPv4(host) ? "\(host):\(port)" : "[\(host)]:\(port)" }

    static func isIPv4(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { part in
                !part.isEmpty && part.count <= 3 && part.allSatisfy { $0.isASCII && $0.isNumber } && Int(part).map { $0 <= 255 } == true
            }
    }

    static func isIPv6(_ text: String) -> Bool {
        guard text.contains(":"), text.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return false }
        if case .v6 = try? SocketAddress(ipAddress: text, port: 0) { return true }
        return false
    }
}
