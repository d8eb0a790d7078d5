import Logging
import NearbySupport
import UCI

// The packet pump: the packets a host sends go through each device's inbox, one at a time and
// in order, into its UCI state machine; what the device answers goes out to its transport.
extension VirtualUWBSWorld {
    /// Starts the pump of one attachment of device `id`: the returned inbox takes the host's
    /// packets, the task feeds them to ``pump(_:from:generation:)`` (and stops with the
    /// attachment).
    func startPump(for id: VirtualUWBSDeviceID, generation attachment: UInt64) -> (VirtualUWBSInbox, Task<Void, Never>) {
        let (stream, continuation) = AsyncStream<UCIPacket>.makeStream(bufferingPolicy: .bufferingNewest(VirtualUWBSInbox.capacity))
        let pump = Task { [weak self] in
            for await packet in stream {
                guard let self else { return }
                await self.pump(packet, from: id, generation: attachment)
            }
        }
        return (VirtualUWBSInbox(continuation), pump)
    }

    /// Runs in each attached device's pump task: one packet at a time, in arrival order.
    private func pump(_ packet: UCIPacket, from id: VirtualUWBSDeviceID, generation attachment: UInt64) async {
        guard devices[id]?.generation == attachment else { return }
        if packet.header.messageType == .command, let delay = commandDelay(id), delay > .zero {
            try? await Task.sleep(for: delay)
            guard devices[id]?.generation == attachment else { return }
        }
        if tracing { broadcaster.yield(.packet(id, .toDevice, packet)) }
        let time = now
        guard let reaction = devices[id]?.uwbs.receive(packet, at: time) else { return }
        handle(reaction, from: id, at: time)
        wakeScheduler()
    }

    /// How long device `id` takes to answer its next command: a slow-responses fault first,
    /// else its configured response delay.
    private func commandDelay(_ id: VirtualUWBSDeviceID) -> Duration? {
        guard let device = devices[id] else { return nil }
        if let slow = faults.takeSlowCommandDelay(id) { return slow }
        let configured = device.uwbs.configuration.responseDelay
        return configured > .zero ? configured : nil
    }

    /// Delivers a reaction's packets, sent at world time `time` (now unless given), and
    /// publishes what it changed.
    func handle(_ reaction: VirtualUWBSReaction, from id: VirtualUWBSDeviceID, at time: Double? = nil) {
        handle(reaction, from: id, output: devices[id]?.output, at: time ?? now)
    }

    /// ``handle(_:from:at:)-(_,VirtualUWBSDeviceID,_)`` for a device the caller holds (a round at
    /// world time `time`): no lookup by identifier.
    func handle(_ reaction: VirtualUWBSReaction, from device: Device, at time: Double) {
        handle(reaction, from: device.id, output: device.isAttached ? device.output : nil, at: time)
    }

    /// The packets go out with the real time of `time` (``VirtualUWBSTimeline/monotonicTime(at:)``):
    /// a round's packets may leave before it is due (``VirtualUWBSWorld/batchWindow``), and an
    /// in-process host stamps their samples with the round's time, not with when it got them.
    private func handle(_ reaction: VirtualUWBSReaction, from id: VirtualUWBSDeviceID, output: VirtualUWBSOutput?, at time: Double) {
        let sentAt = output == nil ? nil : timeline.monotonicTime(at: time)
        for packet in reaction.packets {
            output?.deliver(packet, sentAt)
            if output != nil { traffic[id, default: VirtualUWBSTraffic()].count(packet) }
            if tracing { broadcaster.yield(.packet(id, .toHost, packet)) }
        }
        for state in reaction.deviceStates { broadcaster.yield(.deviceState(id, state)) }
        for problem in reaction.problems {
            logger.debug("\(problem)", metadata: ["device": "\(id)"])
            broadcaster.yield(.problem(id, problem))
        }
        guard !reaction.sessionChanges.isEmpty else { return }
        reportedMismatches.removeAll()
        for change in reaction.sessionChanges {
            broadcaster.yield(.session(id, change))
            if change.state == .active, automaticPeers, devices[id]?.isPeer == false {
                spawnPeers(for: id, sessionID: change.sessionID)
            } else if change.state == .deinitialized {
                for spawned in devices.values.filter({ $0.spawnedBy?.device == id && $0.spawnedBy?.sessionID == change.sessionID }) {
                    detach(spawned.id, reason: "its host's session \(change.sessionID) ended", hangUp: false)
                }
            }
        }
    }
}

extension VirtualUWBSWorld {
    /// What each device sent its host so far, by device, also for devices gone since (an
    /// unplugged kit, a closed connection): for load tests that count every notification.
    public var trafficByDevice: [VirtualUWBSDeviceID: VirtualUWBSTraffic] { traffic }
}
