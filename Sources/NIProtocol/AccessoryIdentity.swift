/// Who an accessory is, as the caller names it: carried by every `NearbySessionEvent` (NearbyInteraction) so a
/// consumer (the CLI, hooks, a recorder) knows which accessory an update or event is about.
///
/// The session layer does not interpret it. The CLI fills it from a BLE address today and from
/// the accessory store later; the simulator uses `sim-1`, `sim-2`, ...
public struct AccessoryIdentity: Sendable, Hashable, Codable, CustomStringConvertible {
    /// A stable identifier, unique among the accessories of one `NearbySessionManager`
    /// (for example a BLE address `F0:F1:F2:F3:F4:F5` or a store identifier).
    public var id: String
    /// The name shown to people (for example `Keys` or `nb-peer`).
    public var displayName: String

    /// Creates an identity; `displayName` defaults to `id`.
    public init(id: String, displayName: String? = nil) {
        self.id = id
        self.displayName = displayName ?? id
    }

    /// The display name, with the identifier when they differ: `Keys (F0:F1:F2:F3:F4:F5)`.
    public var description: String { displayName == id ? id : "\(displayName) (\(id))" }
}
