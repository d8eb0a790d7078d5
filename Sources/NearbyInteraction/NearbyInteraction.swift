// NearbyInteraction: the NI accessory protocol codec, session orchestration and retry policy.
