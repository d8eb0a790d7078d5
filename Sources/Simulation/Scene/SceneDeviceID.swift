/// The name of a device in a ``Scene`` (for example `host` or `accessory-1`).
public struct SceneDeviceID: Sendable, Hashable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The name.
    public var name: String

    /// Wraps a name.
    public init(_ name: String) {
        self.name = name
    }

    /// Wraps a string literal.
    public init(stringLiteral value: String) {
        self.name = value
    }

    /// The host (the Linux machine with the dev kit) in scenario-built scenes.
    public static let host = SceneDeviceID("host")

    /// Accessory `index` (0-based) in scenario-built scenes: `accessory-1`, `accessory-2`, ...
    public static func accessory(_ index: Int) -> SceneDeviceID {
        SceneDeviceID("accessory-\(index + 1)")
    }

    /// Orders by name.
    public static func < (lhs: SceneDeviceID, rhs: SceneDeviceID) -> Bool { lhs.name < rhs.name }

    /// The name.
    public var description: String { name }
}
