// NearbyMQTT: ranging on an MQTT broker, for a whole house (specs/mqtt.md).
//
// - ``MQTTPublisher``: a `RunOutput` that publishes a run's accessories:
//   retained state, QoS 1 events, rate-limited distance, Home Assistant discovery.
// - ``MQTTTopics``: the topic layout `nearby/<host>/<accessory>/{state,event,distance}`.
// - ``HomeAssistantDiscovery``: the discovery configs (a distance sensor, a zone sensor, a
//   "near" binary sensor per accessory, one device per accessory behind the host's device).
// - ``MQTTSetup``: `[mqtt]` settings, `--mqtt` and the environment into a client configuration.
// - ``HouseView``: what `nearby watch` shows: every host's accessories, live.
// - ``HouseFeed``: the house as run statuses and log entries (`nearby watch --web`).
