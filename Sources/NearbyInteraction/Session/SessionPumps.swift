import LowEnergy
import NearbySupport
import UWBDevice

/// The tasks that feed a session's inbox (both roles' sessions, both managers): the data
/// channel's messages and link events, the kit's device events. Each waits for what it
/// forwards: nothing runs while nothing arrives.
enum SessionPumps {
    /// Starts two tasks posting into `mailbox`: every message (with its arrival time), then
    /// `ended` when the message stream finishes; every link event. Cancel them to stop.
    static func start<Input: Sendable>(
        channel: any DataChannel, into mailbox: Mailbox<Input>,
        message: @escaping @Sendable ([UInt8], ContinuousClock.Instant) -> Input, ended: Input,
        link: @escaping @Sendable (DataChannelEvent) -> Input
    ) -> [Task<Void, Never>] {
        [
            Task {
                for await bytes in channel.messages { mailbox.post(message(bytes, .now)) }
                mailbox.post(ended)
            },
            Task {
                for await event in channel.events { mailbox.post(link(event)) }
            },
        ]
    }

    /// Forwards the kit's events (except plain device state changes) to `events`, with no
    /// accessory, until the client closes.
    static func forwardDeviceEvents(of client: UCIClient, to events: Mailbox<NearbySessionEvent>) -> Task<Void, Never> {
        let deviceEvents = client.events()
        return Task {
            for await event in deviceEvents {
                if case .deviceStateChanged = event { continue }
                events.post(NearbySessionEvent(accessory: nil, time: MonotonicTime.seconds(), kind: .device(event)))
            }
        }
    }
}
