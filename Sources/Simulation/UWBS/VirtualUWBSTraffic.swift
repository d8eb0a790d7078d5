import UCI

/// What one virtual UWBS sent to its host (``VirtualUWBSWorld/trafficByDevice``): the kit's own
/// count, for load tests that check every notification arrived.
public struct VirtualUWBSTraffic: Sendable, Hashable {
    /// UCI packets delivered to the host's transport.
    public var packets = 0
    /// SESSION_INFO_NTF packets among them.
    public var sessionInfoNotifications = 0
    /// Two-way measurements in those notifications (one per peer and round).
    public var measurements = 0

    /// No traffic yet.
    public init() {}

    /// Counts one delivered packet.
    mutating func count(_ packet: UCIPacket) {
        packets += 1
        guard packet.header.isUnsegmentedSessionInfo else { return }
        sessionInfoNotifications += 1
        if let view = try? UCISessionInfoView(packet: packet) { measurements += view.measurementCount }
    }
}
