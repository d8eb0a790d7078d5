/// A message channel to one accessory: what the Nearby Interaction accessory protocol runs on
/// (one message = 1 byte ID + payload = one ATT write or one notification).
///
/// Implementations: ``GATTDataChannel`` (GATT write + notify on the NI services) and
/// ``InMemoryDataChannel`` (a connected pair in memory, for simulations and tests).
///
/// Link loss does not end the channel: ``events`` reports ``DataChannelEvent/disconnected(reason:)``,
/// ``reconnect(timeout:)`` restores it, and ``messages`` continues (exactly once per message,
/// no duplicates after a reconnect). ``close()`` ends both streams.
public protocol DataChannel: AnyObject, Sendable {
    /// The longest message ``send(_:)`` accepts, bytes (ATT_MTU - 3 for GATT).
    var maximumMessageLength: Int { get async }

    /// Sends one message (one write).
    /// - Throws: ``BluetoothError/messageTooLong(length:maximum:)`` if longer than
    ///   ``maximumMessageLength`` (never truncated), ``BluetoothError/disconnected(reason:)``
    ///   while the link is down, ``BluetoothError/notReady(detail:)`` after ``close()``, ATT errors.
    func send(_ message: [UInt8]) async throws(BluetoothError)

    /// Messages from the accessory, one per notification, in order. Single consumer; finishes
    /// on ``close()``.
    var messages: AsyncStream<[UInt8]> { get }

    /// Link events (disconnected with reason, reconnected, security failures and refusals).
    /// Single consumer; finishes on ``close()``.
    var events: AsyncStream<DataChannelEvent> { get }

    /// Re-establishes the link after a disconnection (no-op while connected).
    /// - Throws: the connection's errors (timeout, accessory refused, ...).
    func reconnect(timeout: Duration) async throws(BluetoothError)

    /// Closes the channel (disconnects the link) and finishes ``messages`` and ``events``.
    func close() async
}

/// A change of a ``DataChannel``'s link.
public enum DataChannelEvent: Sendable, Hashable {
    /// The link went down; `reason` as reported (0x08: out of range / link lost).
    case disconnected(reason: HCIStatus)
    /// The link is back; messages flow again. `maximumMessageLength` may have changed.
    case reconnected(maximumMessageLength: Int)
    /// Pairing or encryption on the link failed or was refused by the pairing policy
    /// (``SecurityError/refused(_:)``); the channel goes on as far as the link allows.
    case security(SecurityError)
}
