/// What the accessory role serves: the GAP name, the NI data-channel services (the first one in
/// the advertising data, the next beside the name in the scan response where the backend can),
/// Apple's NI service, the advertising interval, how many phones at once, and how long an
/// answer to a phone that has not subscribed yet waits for its subscription.
public struct PeripheralServices: Sendable, Hashable {
    /// The name in the scan response and the GAP service.
    public var name: String
    /// The data-channel services served; the first is advertised in the advertising data, the
    /// next in the scan response when it fits beside the name (this program's own host).
    public var dataChannels: [DataChannelService]
    /// The value of Apple's NI configuration characteristic (the accessory configuration data
    /// without its 0x01 ID); `nil`: Apple's NI service is not served.
    public var appleConfigurationData: [UInt8]?
    /// The advertising interval, ms.
    public var advertisingIntervalMilliseconds: Double
    /// Phones connected at once (advertising pauses at the limit).
    public var maximumConnections: Int
    /// How long a message sent before the phone subscribed to TX waits for the subscription
    /// (the latest one per phone): the phone's wait for an answer.
    public var pendingAnswerLifetime: Duration

    /// Creates the description of what to serve.
    public init(name: String, dataChannels: [DataChannelService], appleConfigurationData: [UInt8]? = nil,
                advertisingIntervalMilliseconds: Double = 100, maximumConnections: Int = 4, pendingAnswerLifetime: Duration = .seconds(3)) {
        self.name = name
        self.dataChannels = dataChannels
        self.appleConfigurationData = appleConfigurationData
        self.advertisingIntervalMilliseconds = advertisingIntervalMilliseconds
        self.maximumConnections = maximumConnections
        self.pendingAnswerLifetime = pendingAnswerLifetime
    }
}

extension PeripheralServices {
    /// How this program's own host advertises them: the first data channel's service in the
    /// advertising data, the name and the next service in the scan response when it fits
    /// (``AdvertisingConfiguration/accessory(services:name:intervalMilliseconds:maximumConnections:)``).
    public var advertising: AdvertisingConfiguration {
        .accessory(services: dataChannels.map(\.service), name: name, intervalMilliseconds: advertisingIntervalMilliseconds,
                   maximumConnections: maximumConnections)
    }
}

/// A phone that connected to the accessory role: its data channel and who it is.
public struct PeripheralLink: Sendable {
    /// The phone's data channel (its writes in, this host's notifications out).
    public var channel: any DataChannel
    /// The phone's identity: its bonded identity address, else the address it connected from.
    public var peer: String

    /// Creates a link.
    public init(channel: any DataChannel, peer: String) {
        self.channel = channel
        self.peer = peer
    }
}

/// The peripheral role as the accessory role uses it: serve the NI data channels, advertise,
/// hand over each phone's channel. Two backends: ``HostPeripheral`` (this program's own host:
/// its GATT server and advertiser) and the BlueZ backend (`GattManager1.RegisterApplication` +
/// `LEAdvertisingManager1.RegisterAdvertisement`; module `BlueZ`).
public protocol BLEPeripheral: AnyObject, Sendable {
    /// What carries it, for messages: `hci:0`, `bluez (hci0)`.
    var backendName: String { get }

    /// The most phones this backend can serve at once (BlueZ before 5.76 notifies every
    /// subscribed phone alike, so one at a time there).
    var maximumConnections: Int { get }

    /// Serves `services` and starts advertising.
    /// - Returns: one ``PeripheralLink`` per phone that connects. Single consumer; finishes on
    ///   ``stop()`` or when the backend goes away.
    /// - Throws: the backend's ``BluetoothError``.
    func start(_ services: PeripheralServices) async throws(BluetoothError) -> AsyncStream<PeripheralLink>

    /// The address phones see this host advertise from, if known.
    func advertisedAddress() async -> BluetoothAddress?

    /// `true` once the controller or the daemon is gone (nothing more can happen).
    var isClosed: Bool { get }

    /// Stops advertising and making links (links made stay until closed).
    func stop() async

    /// Stops, disconnects and releases the backend.
    func close() async
}
