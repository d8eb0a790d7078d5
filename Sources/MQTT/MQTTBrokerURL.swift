/// Where the broker is: `mqtt://[user@]host[:port]` (TCP, port 1883 by default) or
/// `mqtts://[user@]host[:port]` (TLS, port 8883). A password is never part of it: a URL ends up
/// on command lines, which every user of the machine can read (`ps`); it comes from the
/// configuration file or the environment instead.
public struct MQTTBrokerURL: Sendable, Hashable, CustomStringConvertible {
    /// `true` for `mqtts://` (TLS).
    public var isTLS: Bool
    /// The host name or address (an IPv6 address without its brackets).
    public var host: String
    /// The TCP port.
    public var port: Int
    /// The user name of the URL, if any (percent-decoded).
    public var username: String?

    /// Creates a URL from its parts.
    public init(host: String, port: Int? = nil, isTLS: Bool = false, username: String? = nil) {
        self.host = host
        self.port = port ?? (isTLS ? 8883 : 1883)
        self.isTLS = isTLS
        self.username = username
    }

    /// Parses `mqtt://[user@]host[:port]` or `mqtts://...`; `[::1]` for IPv6; a trailing `/` is
    /// accepted.
    /// - Throws: ``MQTTError`` (``MQTTError/Code/invalidURL``) saying what is wrong, also when
    ///   the URL holds a password (`user:secret@`).
    public init(parsing text: String) throws(MQTTError) {
        let example = "write mqtt://[user@]host[:port] or mqtts://[user@]host[:port], e.g. mqtt://192.168.1.10 or mqtts://nearby@broker.local:8883"
        let lowered = text.lowercased()
        let rest: Substring
        if lowered.hasPrefix("mqtt://") {
            isTLS = false
            rest = text.dropFirst(7)
        } else if lowered.hasPrefix("mqtts://") {
            isTLS = true
            rest = text.dropFirst(8)
        } else {
            throw MQTTError(.invalidURL, "'\(text)' is not a broker URL; \(example)")
        }
        var authority = rest
        if authority.hasSuffix("/") { authority = authority.dropLast() }
        if authority.contains("/") || authority.contains("?") || authority.contains("#") {
            throw MQTTError(.invalidURL, "'\(text)' has a path, query or fragment; \(example)")
        }
        if let at = authority.lastIndex(of: "@") {
            let user = authority[..<at]
            if user.contains(":") {
                throw MQTTError(
                    .invalidURL,
                    "the broker URL holds a password; leave it out (command lines are visible to every user in `ps`) and put it in the configuration file's [mqtt] password or the environment variable NEARBY_MQTT_PASSWORD")
            }
            guard !user.isEmpty, let decoded = Self.percentDecoded(user) else {
                throw MQTTError(.invalidURL, "'\(text)' has an empty or badly escaped user name; \(example)")
            }
            username = decoded
            authority = authority[authority.index(after: at)...]
        } else {
            username = nil
        }
        var hostPart = authority
        var portPart: Substring?
        if hostPart.hasPrefix("[") {
            guard let close = hostPart.firstIndex(of: "]") else {
                throw MQTTError(.invalidURL, "'\(text)': an IPv6 address needs its closing ']'; \(example)")
            }
            let after = hostPart[hostPart.index(after: close)...]
            if after.hasPrefix(":") {
                portPart = after.dropFirst()
            } else if !after.isEmpty {
                throw MQTTError(.invalidURL, "'\(text)': unexpected '\(after)' after the address; \(example)")
            }
            hostPart = hostPart[hostPart.index(after: hostPart.startIndex)..<close]
        } else if let colon = hostPart.lastIndex(of: ":") {
            portPart = hostPart[hostPart.index(after: colon)...]
            hostPart = hostPart[..<colon]
        }
        guard !hostPart.isEmpty, !hostPart.contains(where: { $0 == " " || $0 == "@" }) else {
            throw MQTTError(.invalidURL, "'\(text)' names no host; \(example)")
        }
        host = String(hostPart)
        if let portPart {
            guard let number = Int(portPart), (1...65535).contains(number) else {
                throw MQTTError(.invalidURL, "'\(text)': the port must be 1-65535, not '\(portPart)'")
            }
            port = number
        } else {
            port = isTLS ? 8883 : 1883
        }
    }

    /// The URL as it was given, normalised (`mqtt://user@host:1883`; never a password).
    public var description: String {
        let user = username.map { Self.percentEncoded($0) + "@" } ?? ""
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "\(isTLS ? "mqtts" : "mqtt")://\(user)\(shownHost):\(port)"
    }

    /// `host:port` for messages.
    public var endpoint: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    private static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next(), let low = iterator.next(),
                    let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
                else { return nil }
                bytes.append(value)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func percentEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = String(byte, radix: 16, uppercase: true)
                out += "%" + (digits.count == 1 ? "0" + digits : digits)
            }
        }
        return out
    }
}
