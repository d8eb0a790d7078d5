public import LowEnergy
public import Logging

/// Answers "has this accessory advertised recently?": the proximity check a ranging session
/// makes before it tries to reconnect a lost data channel (`AccessorySessionConfiguration`'s
/// `advertisingSeenRecently` in `NearbyInteraction`).
///
/// It remembers when each address was last heard. Asked about an address not heard within
/// ``window``, it scans for at most ``listen`` and answers whether the address advertised in the
/// meantime (joining a scan that already runs). A scan that cannot start (controller busy or
/// gone) answers `true`: when in doubt the session tries to reconnect, as without a monitor.
///
/// ```swift
/// let monitor = AdvertisingMonitor(central: host)
/// configuration.advertisingSeenRecently = { await monitor.seenRecently(address) }
/// ```
public actor AdvertisingMonitor {
    /// The central that scans (this program's own host or BlueZ).
    public let central: any BLECentral
    /// How old a sighting may be and still count (default 5 s).
    public let window: Duration
    /// How long a check listens when the address was not heard within ``window`` (default 2 s).
    public let listen: Duration
    private var lastHeardTimes: [BluetoothAddress: ContinuousClock.Instant] = [:]
    private let logger: Logger

    /// Creates a monitor; nothing is scanned until ``seenRecently(_:)`` needs to.
    /// - Parameters:
    ///   - central: the BLE central that scans (nearby's own host or BlueZ).
    ///   - window: how old a sighting may be and still count.
    ///   - listen: how long to scan for an address not heard within `window`.
    ///   - logger: where the scans are logged.
    public init(central: any BLECentral, window: Duration = .seconds(5), listen: Duration = .seconds(2),
                logger: Logger = Logger(label: "nearby.accessories")) {
        self.central = central
        self.window = window
        self.listen = listen
        self.logger = logger
    }

    /// Records that `address` advertised at `time` (for callers that scan anyway).
    public func heard(_ address: BluetoothAddress, at time: ContinuousClock.Instant = .now) {
        if let known = lastHeardTimes[address], known >= time { return }
        lastHeardTimes[address] = time
    }

    /// When `address` was last heard advertising, `nil` if never.
    public func lastHeard(_ address: BluetoothAddress) -> ContinuousClock.Instant? {
        lastHeardTimes[address]
    }

    /// `true` if `address` advertised within ``window``; otherwise scans for up to ``listen``
    /// and answers whether it advertised meanwhile. Every address heard is remembered; a
    /// bonded accessory's resolvable private address counts as its identity address.
    /// Returns `true` without scanning when the scan cannot start (the error is logged).
    public func seenRecently(_ address: BluetoothAddress) async -> Bool {
        if let last = lastHeardTimes[address], last.duration(to: .now) <= window { return true }
        let stream: AsyncStream<Advertisement>
        do {
            stream = try await central.scan(ScanParameters(active: false))
        } catch {
            logger.info("cannot scan to check whether \(address) is advertising (\(error)); assuming it may be")
            return true
        }
        let listen = listen
        let heard = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await advertisement in stream {
                    await self.heard(advertisement.address, at: advertisement.timestamp)
                    // A bonded accessory with a private address counts under its identity too.
                    if let identity = advertisement.identity { await self.heard(identity.address, at: advertisement.timestamp) }
                    if advertisement.address == address || advertisement.identity?.address == address { return true }
                }
                return false
            }
            group.addTask {
                try? await Task.sleep(for: listen)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        logger.debug("\(address) \(heard ? "is advertising" : "was not heard within \(listen)")")
        return heard
    }
}
