// NearbyInteraction: Nearby Interaction sessions (the phone role), their orchestration over a data channel and a UCI client, and the retry policy. The protocol codec and planning are in NIProtocol.
