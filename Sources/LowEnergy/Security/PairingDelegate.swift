/// Answers the user-facing questions of pairing: show a passkey, type one, compare numbers.
///
/// The CLI implements it on the terminal (or from `--passkey` / `--confirm` for scripts); a
/// future peripheral host (accessory role) implements it for its own display and buttons. Every
/// call comes from the connection's ``SecurityManager``; the SMP timeout (30 s) applies while
/// the user thinks.
public protocol PairingDelegate: Sendable {
    /// Shows the six-digit `passkey` (print it with leading zeros: `%06d`); the user types it on
    /// the peer.
    func displayPasskey(_ passkey: UInt32, peer: BluetoothAddress) async
    /// Asks the user for the six-digit passkey the peer shows.
    /// - Returns: the passkey (0...999999), or `nil` to cancel pairing.
    func requestPasskey(peer: BluetoothAddress) async -> UInt32?
    /// Asks whether the peer shows the same six-digit `number` (print it with leading zeros).
    /// - Returns: `true` to accept.
    func confirmNumber(_ number: UInt32, peer: BluetoothAddress) async -> Bool
    /// Whether to accept pairing that the peer started (peripheral role: a Pairing Request;
    /// central role: a Security Request). Default `true`.
    func acceptPairing(peer: BluetoothAddress) async -> Bool
}

extension PairingDelegate {
    /// Accepts every pairing the peer starts.
    public func acceptPairing(peer: BluetoothAddress) async -> Bool { true }
}

/// A delegate for hosts nobody watches: Just Works only (pair with
/// ``IOCapability/noInputNoOutput``); it never confirms a number and gives no passkey, so
/// pairing that needs a user fails cleanly instead of hanging.
public struct UnattendedPairingDelegate: PairingDelegate {
    /// Creates the delegate.
    public init() {}
    /// Does nothing (nobody to show it to).
    public func displayPasskey(_ passkey: UInt32, peer: BluetoothAddress) async {}
    /// Returns `nil` (cancels).
    public func requestPasskey(peer: BluetoothAddress) async -> UInt32? { nil }
    /// Returns `false`.
    public func confirmNumber(_ number: UInt32, peer: BluetoothAddress) async -> Bool { false }
}

/// A delegate with fixed answers, for scripts (`--passkey N`, `--confirm`) and tests.
public struct FixedPairingDelegate: PairingDelegate {
    /// The passkey to type when asked (`nil`: cancel).
    public var passkey: UInt32?
    /// The answer to numeric comparisons.
    public var confirms: Bool
    /// Called with every passkey this host displays and every number it compares.
    public var shown: @Sendable (UInt32) -> Void

    /// Creates the delegate.
    public init(passkey: UInt32? = nil, confirms: Bool = false, shown: @escaping @Sendable (UInt32) -> Void = { _ in }) {
        self.passkey = passkey
        self.confirms = confirms
        self.shown = shown
    }

    /// Reports the passkey through ``shown``.
    public func displayPasskey(_ passkey: UInt32, peer: BluetoothAddress) async { shown(passkey) }
    /// Returns ``passkey``.
    public func requestPasskey(peer: BluetoothAddress) async -> UInt32? { passkey }
    /// Reports the number through ``shown`` and returns ``confirms``.
    public func confirmNumber(_ number: UInt32, peer: BluetoothAddress) async -> Bool {
        shown(number)
        return confirms
    }
}
