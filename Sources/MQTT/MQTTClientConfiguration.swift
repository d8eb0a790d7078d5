/// The MQTT protocol version a client speaks.
public enum MQTTProtocolVersion: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// MQTT 3.1.1 (OASIS 2014): what every broker speaks.
    case v311 = "3.1.1"
    /// MQTT 5.0 (OASIS 2019): reason codes, properties (payload format, content type).
    case v5 = "5"

    public var description: String { "MQTT \(rawValue)" }
}

/// A secret (a password) that never shows in logs, messages or `print`: its description is
/// `<redacted>`. Only the connection reads the value.
public struct MQTTSecret: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    let value: String

    /// Wraps a secret.
    public init(_ value: String) { self.value = value }

    /// `true` if the secret is the empty string.
    public var isEmpty: Bool { value.isEmpty }

    public var description: String { "<redacted>" }
    public var debugDescription: String { "<redacted>" }
}

/// TLS files for `mqtts://` (PEM): the CA that signed the broker's certificate and, if the
/// broker asks for one, this client's certificate and key.
public struct MQTTTLSFiles: Sendable, Hashable {
    /// The CA certificate(s) to trust (`nil`: the system's CAs in /etc/ssl/certs).
    public var caFile: String?
    /// This client's certificate (`nil`: none).
    public var certificateFile: String?
    /// This client's private key (unencrypted PEM; with ``certificateFile``).
    public var keyFile: String?

    /// Creates the set; every file optional.
    public init(caFile: String? = nil, certificateFile: String? = nil, keyFile: String? = nil) {
        self.caFile = caFile
        self.certificateFile = certificateFile
        self.keyFile = keyFile
    }
}

/// How an ``MQTTClient`` connects and behaves.
public struct MQTTClientConfiguration: Sendable, Hashable {
    /// The broker.
    public var broker: MQTTBrokerURL
    /// The client identifier (unique per broker: a second client with the same id takes the
    /// connection over).
    public var clientID: String
    /// The protocol version.
    public var protocolVersion: MQTTProtocolVersion = .v311
    /// Seconds between keepalive pings when idle (the broker drops the client after 1.5 × this
    /// without traffic, and publishes its will). 5 ... 65535.
    public var keepAlive: Int = 30
    /// Keep the session (subscriptions, and QoS 1 messages for it while it is away) on the
    /// broker for this many seconds after a disconnect; `nil` (the default): a clean session
    /// at every connect. MQTT 3.1.1 has no expiry: any value means "clean session off".
    public var sessionExpiry: UInt32?
    /// The user name (default: the URL's).
    public var username: String?
    /// The password (only with a user name).
    public var password: MQTTSecret?
    /// TLS files, used with `mqtts://`.
    public var tls = MQTTTLSFiles()
    /// The last will: published by the broker when this client vanishes without a clean
    /// disconnect (killed, network lost, keepalive missed).
    public var will: MQTTMessage?
    /// Published (retained) after every successful connect, before anything else (`online`).
    public var birth: MQTTMessage?
    /// On ``MQTTClient/stop(timeout:)``, publish the will's payload first (a clean disconnect
    /// suppresses the broker's will, so the `offline` status would otherwise never come).
    public var publishesWillOnStop = true
    /// The first reconnect delay, seconds; doubled after each failed try up to
    /// ``reconnectMaximum``, back to this after a successful connect.
    public var reconnectMinimum: Double = 1
    /// The longest reconnect delay, seconds.
    public var reconnectMaximum: Double = 30
    /// QoS 1 messages kept while the broker is unreachable; beyond it the oldest is dropped
    /// (and counted). Retained messages are kept apart (the latest per topic).
    public var queueLimit = 1000
    /// QoS 1 messages in flight (sent, not yet acknowledged) at once.
    public var inflightWindow = 20

    /// Creates a configuration.
    public init(broker: MQTTBrokerURL, clientID: String) {
        self.broker = broker
        self.clientID = clientID
    }

    /// The user name in effect: ``username``, else the URL's.
    public var effectiveUsername: String? { username ?? broker.username }

    /// Checks the settings before a connection is tried.
    /// - Throws: ``MQTTError`` (``MQTTError/Code/invalidConfiguration``) naming the setting.
    public func validate() throws(MQTTError) {
        if clientID.isEmpty || clientID.utf8.count > 65535 {
            throw MQTTError(.invalidConfiguration, "the MQTT client id must be 1-65535 bytes")
        }
        guard (5...65535).contains(keepAlive) else {
            throw MQTTError(.invalidConfiguration, "the MQTT keepalive must be 5-65535 s, not \(keepAlive)")
        }
        guard reconnectMinimum > 0, reconnectMaximum >= reconnectMinimum, reconnectMaximum.isFinite else {
            throw MQTTError(.invalidConfiguration, "the reconnect delays must satisfy 0 < minimum ≤ maximum (\(reconnectMinimum) s, \(reconnectMaximum) s)")
        }
        guard queueLimit >= 1, inflightWindow >= 1 else {
            throw MQTTError(.invalidConfiguration, "the MQTT queue limit and in-flight window must be ≥ 1")
        }
        if password != nil && effectiveUsername == nil {
            throw MQTTError(.invalidConfiguration, "a password was given without a user name; put the user in the URL (mqtt://USER@host) or [mqtt] username")
        }
        if tls.certificateFile != nil && tls.keyFile == nil || tls.certificateFile == nil && tls.keyFile != nil {
            throw MQTTError(.invalidConfiguration, "a client certificate needs both the certificate file and its key file")
        }
        if !broker.isTLS && (tls.caFile != nil || tls.certificateFile != nil) {
            throw MQTTError(.invalidConfiguration, "TLS files are set but the URL is \(broker) (plain TCP); use mqtts:// for TLS")
        }
    }
}
