/// Who may read the web view.
///
/// - With a token (`--web-token`, `NEARBY_WEB_TOKEN`, `[web] token`): every request must carry it,
///   as `?token=TOKEN` (what the page's address holds) or `Authorization: Bearer TOKEN`.
/// - Without one (loopback only: ``WebSettings`` refuses another address without a token): the
///   request's `Host` must be a loopback name of this server (`127.0.0.1:PORT`, `localhost:PORT`,
///   `[::1]:PORT`), so a web page elsewhere cannot read the view through DNS rebinding.
public struct WebAccess: Sendable {
    /// The token, `nil` for none.
    public let token: String?
    /// The bound address (its real port).
    public let address: WebAddress

    /// What a request gets.
    enum Verdict: Equatable {
        case allowed
        /// 401: no token or a wrong one.
        case unauthorized
        /// 403: a `Host` this server does not answer to without a token.
        case foreignHost(String)
    }

    /// Creates the policy for a server bound at `address`.
    public init(token: String?, address: WebAddress) {
        self.token = token
        self.address = address
    }

    /// Characters a token may have: URL-unreserved, so it goes into an address unchanged.
    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"): true
        default: false
        }
    }

    /// Checks a token's form: 16-256 URL-safe characters.
    /// - Throws: ``WebError`` `invalidToken` saying how to make a good one.
    public static func validate(token: String) throws(WebError) {
        let bytes = Array(token.utf8)
        guard (16...256).contains(bytes.count), bytes.allSatisfy(isTokenCharacter) else {
            throw WebError(
                .invalidToken,
                "the web token must be 16-256 characters of A-Z, a-z, 0-9, '-', '.', '_', '~' (it goes into the page's address); make one with `openssl rand -hex 16`"
            )
        }
    }

    /// The verdict for a request with `query` (the part of the target after `?`, if any),
    /// `authorization` and `host` header values.
    func check(query: Substring?, authorization: String?, host: String?) -> Verdict {
        if let token {
            let expected = Array(token.utf8)
            if let query, let given = Self.parameter("token", in: query), Self.equal(Array(given.utf8), expected) { return .allowed }
            if let authorization, authorization.lowercased().hasPrefix("bearer "),
                Self.equal(Array(authorization.dropFirst(7).trimmingPrefix(" ").utf8), expected)
            {
                return .allowed
            }
            return .unauthorized
        }
        guard let host else { return .allowed }  // HTTP/1.0 without Host: not a browser
        return allowedHosts.contains(host.lowercased()) ? .allowed : .foreignHost(host)
    }

    /// The `Host` values answered without a token.
    var allowedHosts: Set<String> {
        var names: Set<String> = ["127.0.0.1", "localhost", "[::1]"]
        names.insert(WebAddress.isIPv4(address.host) ? address.host : "[\(address.host)]")
        return Set(names.flatMap { [$0, "\($0):\(address.port)"] })
    }

    /// A query parameter's value, percent-decoded (`nil` if absent or malformed).
    static func parameter(_ name: String, in query: Substring) -> String? {
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0] == name else { continue }
            return percentDecoded(parts[1])
        }
        return nil
    }

    static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
                bytes.append(high << 4 | low)
            } else if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Compares in time independent of where the bytes differ (the length may show).
    static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in a.indices { difference |= a[i] ^ b[i] }
        return difference == 0
    }
}
