// MQTT: a client for MQTT 3.1.1 and 5 brokers (Mosquitto, EMQX, HiveMQ, Home Assistant's add-on)
// over Eclipse Mosquitto's client library, libmosquitto (the `CMosquitto` system library).
//
// - ``MQTTClient``: connect, TLS (CA file, client certificate), user name and password, keepalive,
//   last will and birth message, reconnect with exponential backoff, a bounded offline queue
//   for QoS 1 messages, retained messages re-published after every reconnect, subscriptions.
// - ``MQTTBrokerURL``: `mqtt://[user@]host[:port]` and `mqtts://...` (never a password).
// - ``MQTTTopic``: topic levels made safe, topic filters matched.
//
// All calls into libmosquitto are in `MosquittoConnection.swift`. Protocol reference: OASIS
// MQTT 3.1.1 and MQTT 5.0; what `nearby` publishes: specs/mqtt.md.
