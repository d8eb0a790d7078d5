/// The quality of service of an MQTT message (MQTT 3.1.1 §4.3, MQTT 5.0 §4.3).
public enum MQTTQoS: Int32, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// At most once: sent once, lost if the connection is down (distance updates).
    case atMostOnce = 0
    /// At least once: acknowledged by the broker (PUBACK), re-sent until it is (zone events).
    case atLeastOnce = 1
    /// Exactly once (four-way handshake).
    case exactlyOnce = 2

    public var description: String { "QoS \(rawValue)" }
}

/// What a payload holds. With MQTT 5 it becomes the payload format indicator (and, for JSON,
/// the content type `application/json`); MQTT 3.1.1 has no way to say it.
public enum MQTTPayloadFormat: Sendable, Hashable {
    /// Bytes of unspecified format.
    case bytes
    /// UTF-8 text.
    case text
    /// A UTF-8 JSON document.
    case json
}

/// One MQTT application message: a topic, a payload, a QoS and the retain flag.
public struct MQTTMessage: Sendable, Hashable, CustomStringConvertible {
    /// The topic (levels separated by `/`; no `+` or `#` when publishing).
    public var topic: String
    /// The payload bytes (empty with `retain` deletes the retained message of the topic).
    public var payload: [UInt8]
    /// The quality of service.
    public var qos: MQTTQoS
    /// `true`: the broker keeps it as the topic's last value for future subscribers.
    public var retain: Bool
    /// What the payload holds (an MQTT 5 property).
    public var format: MQTTPayloadFormat

    /// Creates a message with a binary payload.
    public init(topic: String, payload: [UInt8], qos: MQTTQoS = .atMostOnce, retain: Bool = false, format: MQTTPayloadFormat = .bytes) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retain = retain
        self.format = format
    }

    /// Creates a message with a UTF-8 text payload (`format` `.text` unless given).
    public init(topic: String, text: String, qos: MQTTQoS = .atMostOnce, retain: Bool = false, format: MQTTPayloadFormat = .text) {
        self.init(topic: topic, payload: Array(text.utf8), qos: qos, retain: retain, format: format)
    }

    /// The payload as UTF-8 text (invalid bytes replaced).
    public var text: String { String(decoding: payload, as: UTF8.self) }

    /// `topic (QoS 1, retained): payload` for logs (the payload cut at 200 bytes).
    public var description: String {
        let body = payload.count > 200 ? String(decoding: payload.prefix(200), as: UTF8.self) + "..." : text
        return "\(topic) (\(qos)\(retain ? ", retained" : "")): \(body)"
    }
}
