/// Identifies one virtual UWB subsystem in a ``VirtualUWBSWorld``: a UCI-connected device (an
/// in-process ``VirtualUWBSTransport`` or one TCP connection of ``VirtualUWBSServer``) or a
/// built-in ``VirtualPeer``.
///
/// Numbers are given in order of creation, starting at 1, and never reused within a world.
public struct VirtualUWBSDeviceID: RawRepresentable, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The number.
    public let rawValue: Int

    /// Wraps a number.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Orders by number (creation order).
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `"device 3"`.
    public var description: String { "device \(rawValue)" }
}

/// Where a virtual UWBS sits in the world's ``Scene``.
///
/// A device placed ``automatic`` gets its place when it first ranges with a peer: the controller
/// of that pair becomes the scenario's host (at the origin, facing north) if no other attached
/// device is the host, every other device becomes the next free accessory of the scenario
/// (accessory 0, 1, ... in order of appearance, on the scenario's trajectory for that index).
/// A place is given back when its device detaches, so a host that reconnects is the host again.
public enum VirtualUWBSPlacement: Sendable, Hashable, CustomStringConvertible {
    /// Decided when the device first ranges (see the type's documentation).
    case automatic
    /// The scenario's host pose.
    case host
    /// The scenario's accessory `index` (0-based), on its trajectory for that index.
    case accessory(Int)
    /// A scene device of the caller's choosing on its own trajectory.
    case custom(SceneDeviceID, Trajectory)

    /// `"automatic"`, `"host"`, `"accessory 0"`, `"custom tag"`.
    public var description: String {
        switch self {
        case .automatic: "automatic"
        case .host: "host"
        case .accessory(let index): "accessory \(index)"
        case .custom(let id, _): "custom \(id)"
        }
    }
}
