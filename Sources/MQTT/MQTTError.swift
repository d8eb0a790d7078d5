/// An MQTT problem with a message a user can act on (what happened, with which broker, what to
/// check). Errors are values: a client keeps reconnecting after most of them and reports each
/// through ``MQTTClientEvent``.
public struct MQTTError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// The broker URL is not `mqtt://[user@]host[:port]` or `mqtts://...`.
        case invalidURL = "invalid-url"
        /// A setting cannot work (a TLS file missing, a key without a certificate, ...).
        case invalidConfiguration = "invalid-configuration"
        /// The host name does not resolve.
        case unknownHost = "unknown-host"
        /// The TCP connection failed or broke (refused, unreachable, reset, keepalive timeout).
        case network
        /// The TLS handshake failed (certificate not trusted, wrong host name, bad client key).
        case tls
        /// The broker refused the user name or password (CONNACK 4 / reason 0x86).
        case badCredentials = "bad-credentials"
        /// The broker refused this client (CONNACK 5 / reason 0x87: not authorised, ACL).
        case notAuthorized = "not-authorized"
        /// The broker refused the connection for another reason (protocol version, client id,
        /// server unavailable, ...).
        case refused
        /// The broker or the client broke the protocol.
        case protocolError = "protocol"
        /// libmosquitto failed in another way.
        case library
        /// libmosquitto (`libmosquitto.so.1`, Debian's `libmosquitto1`) is not installed or too
        /// old: MQTT opens it at first use, the rest of `nearby` works without it.
        case libraryMissing = "library-missing"
    }

    /// The kind of problem.
    public var code: Code
    /// What happened and what to do.
    public var description: String

    /// Creates an error.
    public init(_ code: Code, _ description: String) {
        self.code = code
        self.description = description
    }

    /// `true` for problems that a reconnect cannot fix without a change of settings (the
    /// client keeps trying, at its longest backoff, in case the broker changes).
    public var needsUserAction: Bool {
        switch code {
        case .invalidURL, .invalidConfiguration, .tls, .badCredentials, .notAuthorized, .unknownHost, .libraryMissing: true
        case .network, .refused, .protocolError, .library: false
        }
    }
}
