public import LowEnergy
import NearbyBase

/// Setting an accessory up failed; ``description`` says what happened and what to do.
/// Nothing is stored when setup fails.
public enum AccessorySetupError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No advertisement matched any display item before the timeout.
    case nothingFound(items: [DisplayItem], timeout: Duration)
    /// Accessories were found but the scripted choice designated none of them (or several).
    case noMatch(choice: PickerChoice, timeout: Duration, found: [String])
    /// Accessories were found but none was picked before the timeout.
    case notPicked(timeout: Duration, found: [String])
    /// The user cancelled.
    case cancelled
    /// The picked accessory did not answer the connection request.
    case accessoryDidNotAnswer(address: BluetoothAddress, timeout: Duration)
    /// The accessory refused the connection or a request (`reason` as reported).
    case accessoryRefused(address: BluetoothAddress, reason: String)
    /// The accessory offers none of the known data-channel services; `offered` lists its primary services.
    case noDataChannel(address: BluetoothAddress, offered: [BluetoothUUID], known: [DataChannelService])
    /// The scan or the controller failed.
    case bluetooth(BluetoothError)
    /// Storing the accessory failed.
    case store(AccessoryStoreError)
    /// Pairing with the accessory failed (the `SecurityError` says why and what to do).
    case pairingFailed(address: BluetoothAddress, SecurityError)

    /// What went wrong and what to do.
    public var description: String {
        switch self {
        case .nothingFound(let items, let timeout):
            let wanted = items.map { $0.name.isEmpty ? "\($0.descriptor)" : "\($0.name) (\($0.descriptor))" }.joined(separator: " or ")
            var text = "no accessory matching \(wanted) was found in \(timeout.compactText): check that it is powered, "
                + "advertising (in pairing mode) and in range"
            if items.contains(where: { $0.descriptor.range == .immediate }) {
                text += "; range immediate needs it next to the adapter (RSSI >= \(DiscoveryRange.immediateThreshold) dBm)"
            }
            return text + ". `nearby scan` shows what is advertising"
        case .noMatch(let choice, let timeout, let found):
            return "no single accessory matched --pick \(choice) in \(timeout.compactText); found: "
                + found.joined(separator: "; ") + ". Pick by address, or use --pick first"
        case .notPicked(let timeout, let found):
            return "no accessory was picked in \(timeout.compactText) (found: " + found.joined(separator: "; ")
                + "); run again and pick one, or use --pick"
        case .cancelled:
            return "setup cancelled; nothing was stored"
        case .accessoryDidNotAnswer(let address, let timeout):
            return "\(address) did not answer the connection request in \(timeout.compactText): it may have stopped "
                + "advertising, moved out of range, or be connected to another device; bring it closer and retry"
        case .accessoryRefused(let address, let reason):
            return "\(address) refused the connection: \(reason); put it back in pairing mode and retry"
        case .noDataChannel(let address, let offered, let known):
            return "\(address) offers no known data channel: its services are "
                + (offered.isEmpty ? "none" : offered.map(\.description).joined(separator: ", "))
                + "; nearby needs one of " + known.map(\.description).joined(separator: ", ")
                + ". It is not a Nearby Interaction accessory, or its firmware uses another service; nothing was stored"
        case .bluetooth(let error):
            return error.description
        case .store(let error):
            return error.description
        case .pairingFailed(let address, let error):
            return "pairing with \(address) failed: \(error); nothing was stored"
        }
    }
}
