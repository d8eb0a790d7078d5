import Foundation
public import Logging
public import LowEnergy

/// The setup flow (AccessorySetupKit's `showPicker` on Linux): scan with the display items'
/// descriptors, let a chooser pick from the live list, connect, check that the accessory offers
/// a known data channel, disconnect, and store it.
///
/// ```swift
/// let setup = AccessorySetup(central: host, items: [item], store: AccessoryStore())
/// let result = try await setup.run(timeout: .seconds(30), chooser: ScriptedChooser(.first))
/// ```
public struct AccessorySetup: Sendable {
    /// The central: this program's own host or BlueZ (setup stops its scans before connecting).
    public let central: any BLECentral
    /// What to offer.
    public let items: [DisplayItem]
    /// Where the accessory is stored.
    public let store: AccessoryStore
    /// The data channels an accessory must offer one of (default: `DataChannelService.known`, LowEnergy).
    public var dataChannels: [DataChannelService]
    /// How long the accessory may take to accept the connection.
    public var connectTimeout: Duration
    /// What setting up an accessory that is stored already does (default
    /// ``AccessoryStore/ExistingPolicy/refresh``: a name the user gave with `rename` survives;
    /// ``AccessoryStore/ExistingPolicy/update`` stores the display item's name again).
    public var whenStored: AccessoryStore.ExistingPolicy = .refresh
    /// How long a device stays in the list without a new advertisement.
    public var staleAfter: Duration
    /// Pair with the accessory after checking its data channel (AccessorySetupKit's
    /// `bluetoothPairingLE`; `nearby setup --pair`): the keys are stored with the record (own
    /// host), or BlueZ keeps them and the record says so (``AccessoryRecord/bondHolder``).
    /// Default `false`. The backend's `SecurityContext` (LowEnergy) decides the method and asks the user. An
    /// accessory that does not bond (`Bond.persistent` is `false`) is stored without keys.
    public var pairing = false
    /// Called with every pairing or encryption failure on the accessory's connection, refusals of
    /// the pairing policy (`SecurityError.refused(_:)`) included, in order (`nearby
    /// setup` prints them; with `--json` as objects). All are delivered before ``setUp(_:)`` returns.
    public var securityEvents: (@Sendable (SecurityError, BluetoothAddress) -> Void)?
    private let logger: Logger

    /// What a successful setup did.
    public struct Result: Sendable, Hashable {
        /// The picked candidate.
        public var candidate: AccessoryCandidate
        /// The data channel the accessory offers.
        public var dataChannel: DataChannelService
        /// What the store did (``AccessoryStore/AddOutcome/updated(_:previous:)`` when the
        /// address was set up before: its id is kept).
        public var outcome: AccessoryStore.AddOutcome
        /// What pairing made, if the setup paired: the keys (also when the accessory did not
        /// bond: then they are not in the record), or BlueZ's summary.
        public var pairing: PairingOutcome? = nil

        /// The stored record.
        public var record: AccessoryRecord { outcome.record }
    }

    /// Creates a setup flow.
    public init(central: any BLECentral, items: [DisplayItem], store: AccessoryStore,
                dataChannels: [DataChannelService] = DataChannelService.known,
                connectTimeout: Duration = .seconds(10), staleAfter: Duration = .seconds(10),
                logger: Logger = Logger(label: "nearby.accessories")) {
        self.central = central
        self.items = items
        self.store = store
        self.dataChannels = dataChannels
        self.connectTimeout = connectTimeout
        self.staleAfter = staleAfter
        self.logger = logger
    }

    /// Picks (``choose(timeout:chooser:)``) then sets up (``setUp(_:)``).
    public func run(timeout: Duration?, chooser: some AccessoryChooser) async throws(AccessorySetupError) -> Result {
        let candidate = try await choose(timeout: timeout, chooser: chooser)
        return try await setUp(candidate)
    }

    private enum Input: Sendable {
        case advertisement(Advertisement)
        case command(PickerCommand)
        case tick
        case timeout
        case scanEnded
    }

    /// Scans and lets `chooser` pick. Only connectable advertisers are offered.
    /// - Parameters:
    ///   - timeout: how long to wait for a pick (`nil`: until picked or cancelled).
    ///   - chooser: who picks: the terminal picker, `--pick`, or a test's.
    /// - Throws: ``AccessorySetupError/nothingFound(items:timeout:)``, ``AccessorySetupError/noMatch(choice:timeout:found:)``,
    ///   ``AccessorySetupError/notPicked(timeout:found:)``, ``AccessorySetupError/cancelled``,
    ///   ``AccessorySetupError/bluetooth(_:)`` if the scan fails or ends.
    public func choose(timeout: Duration?, chooser: some AccessoryChooser) async throws(AccessorySetupError) -> AccessoryCandidate {
        let advertisements: AsyncStream<Advertisement>
        do {
            advertisements = try await central.scan(ScanParameters())
        } catch {
            throw .bluetooth(error)
        }
        let (inputs, continuation) = AsyncStream<Input>.makeStream(bufferingPolicy: .bufferingNewest(4096))
        let staleAfter = self.staleAfter
        let feeders = [
            Task {
                for await advertisement in advertisements { continuation.yield(.advertisement(advertisement)) }
                continuation.yield(.scanEnded)
            },
            Task {
                for await command in chooser.commands() { continuation.yield(.command(command)) }
            },
            Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: min(staleAfter / 4, .seconds(1)))
                    continuation.yield(.tick)
                }
            },
            Task {
                guard let timeout else { return }
                try? await Task.sleep(for: timeout)
                if !Task.isCancelled { continuation.yield(.timeout) }
            },
        ]
        defer {
            for feeder in feeders { feeder.cancel() }
            continuation.finish()
        }
        var picker = AccessoryPicker(items: items, staleAfter: staleAfter, connectableOnly: true)
        for await input in inputs {
            let update: PickerUpdate
            switch input {
            case .advertisement(let advertisement):
                switch picker.ingest(advertisement) {
                case .added(let index)?: update = .added(picker.candidates[index])
                case .updated(let index)?: update = .updated(picker.candidates[index])
                case nil: continue
                }
            case .tick:
                let removed = picker.expire(now: .now)
                if removed.isEmpty { continue }
                update = .expired(removed)
            case .command(let command):
                switch command {
                case .cancel:
                    throw .cancelled
                case .move(let move):
                    picker.move(move)
                    update = .moved
                case .pickHighlighted:
                    if let highlighted = picker.highlighted { return highlighted }
                    update = .rejected("nothing to pick yet")
                case .pick(let choice):
                    do {
                        return try picker.select(choice)
                    } catch {
                        update = .rejected(error.description)
                    }
                }
            case .timeout:
                let timeout = timeout ?? .zero
                let found = picker.candidates.map(\.description)
                if found.isEmpty { throw .nothingFound(items: items, timeout: timeout) }
                if let choice = chooser.scriptedChoice { throw .noMatch(choice: choice, timeout: timeout, found: found) }
                throw .notPicked(timeout: timeout, found: found)
            case .scanEnded:
                throw .bluetooth(.notReady(detail: "the scan ended (the controller stopped or the transport closed)"))
            }
            if let picked = chooser.pickerChanged(picker, update: update) { return picked }
        }
        throw .cancelled
    }

    /// Connects to `candidate`, checks that it offers one of ``dataChannels``, pairs if
    /// ``pairing`` is set, disconnects and stores it (an address set up before keeps its id, and
    /// its bond unless a new one was made). Stops the host's scans first.
    /// - Throws: ``AccessorySetupError/accessoryDidNotAnswer(address:timeout:)``,
    ///   ``AccessorySetupError/accessoryRefused(address:reason:)``,
    ///   ``AccessorySetupError/noDataChannel(address:offered:known:)`` (nothing stored),
    ///   ``AccessorySetupError/pairingFailed(address:_:)`` (nothing stored),
    ///   ``AccessorySetupError/bluetooth(_:)``, ``AccessorySetupError/store(_:)``.
    public func setUp(_ candidate: AccessoryCandidate) async throws(AccessorySetupError) -> Result {
        await central.stopScanning()
        let address = candidate.address
        let link: any SetupLink
        do {
            link = try await central.connectForSetup(to: address, type: candidate.addressType.connectable, timeout: connectTimeout)
        } catch {
            throw Self.mapConnect(error, address: address, timeout: connectTimeout)
        }
        logger.info("connected to \(address) for setup; looking for a data channel")
        let forwarder = await forwardSecurityEvents(of: link)
        let offered: DataChannelService?
        do {
            offered = try await link.offeredDataChannel(among: dataChannels)
        } catch {
            await Self.disconnect(link, forwarder)
            throw Self.mapConnect(error, address: address, timeout: connectTimeout)
        }
        guard let offered else {
            let services = await link.primaryServices()
            await Self.disconnect(link, forwarder)
            throw .noDataChannel(address: address, offered: services, known: dataChannels)
        }
        var pairing: PairingOutcome?
        if self.pairing {
            do {
                pairing = try await link.pair()
                logger.info("paired with \(address): \(pairing!)")
            } catch {
                await Self.disconnect(link, forwarder)
                throw .pairingFailed(address: address, error)
            }
        }
        await Self.disconnect(link, forwarder)
        var record = AccessoryRecord(
            displayName: candidate.displayName, advertisedName: candidate.advertisedName, address: address,
            addressType: candidate.addressType, descriptor: candidate.displayItem.descriptor,
            dataChannel: DataChannelReference(offered), bonding: .none, origin: .setup,
            imagePath: candidate.displayItem.imagePath, lastSeenAt: Date())
        switch pairing {
        case .keys(let bond)? where bond.persistent:
            record.bond = bond
            record.bonding = .bonded
        case .keys?:
            // The keys of an accessory that does not bond are not stored (it does not keep them either).
            break
        case .keptByBlueZ(let summary)?:
            record.bonding = .bonded
            record.bondHolder = .bluez
            logger.info("BlueZ keeps the bond with \(address) (\(summary))")
        case nil:
            break
        }
        do {
            let outcome = try await store.add(record, ifPresent: whenStored)
            logger.info("stored \(outcome.record)")
            return Result(candidate: candidate, dataChannel: offered, outcome: outcome, pairing: pairing)
        } catch {
            throw .store(error)
        }
    }

    /// Hands the link's security failures to ``securityEvents`` until it ends.
    private func forwardSecurityEvents(of link: any SetupLink) async -> Task<Void, Never>? {
        guard let securityEvents else { return nil }
        let failures = await link.securityFailures()
        let address = link.address
        return Task {
            for await error in failures { securityEvents(error, address) }
        }
    }

    /// Disconnects, then lets the forwarder deliver what the link reported (its failures end
    /// with the link).
    private static func disconnect(_ link: any SetupLink, _ forwarder: Task<Void, Never>?) async {
        await link.disconnect()
        await forwarder?.value
    }

    static func mapConnect(_ error: BluetoothError, address: BluetoothAddress, timeout: Duration) -> AccessorySetupError {
        switch error {
        case .timeout:
            return .accessoryDidNotAnswer(address: address, timeout: timeout)
        case .commandFailed(_, let status):
            return .accessoryRefused(address: address, reason: "\(status)")
        case .attError, .disconnected:
            return .accessoryRefused(address: address, reason: error.description)
        default:
            return .bluetooth(error)
        }
    }
}
