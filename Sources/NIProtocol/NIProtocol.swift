// NIProtocol: the Nearby Interaction accessory protocol, pure: the message codec (iOS and
// Android dialects), the identity of an accessory, and session planning (configuration data
// in, FiRa session parameters and the reply out) for both roles. No I/O, no Foundation, no C
// modules, no actors (Tests/NIProtocolTests/PurityTests).
