/// Why a scene, trajectory, noise model or scenario request was rejected.
public struct SceneError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong.
    public enum Reason: Sendable, Hashable {
        /// No device of this name is in the scene; `known` lists those that are.
        case unknownDevice(name: String, known: [String])
        /// No scenario has this name; `available` lists the catalogue.
        case unknownScenario(name: String, available: [String])
        /// A parameter holds a value outside its range.
        case invalidParameter(name: String, value: Double, expected: String)
    }

    /// What was wrong.
    public var reason: Reason

    /// Creates an error.
    public init(_ reason: Reason) {
        self.reason = reason
    }

    static func invalid(_ name: String, _ value: Double, _ expected: String) -> SceneError {
        SceneError(.invalidParameter(name: name, value: value, expected: expected))
    }

    /// `3` for whole numbers, `1.5` otherwise.
    private static func format(_ value: Double) -> String {
        value.isFinite && value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
    }

    /// A sentence saying what was wrong and what is accepted.
    public var description: String {
        switch reason {
        case .unknownDevice(let name, let known):
            let holds = known.isEmpty ? "no devices (place them first)" : known.joined(separator: ", ")
            return "no device \"\(name)\" in the scene; it holds: \(holds)"
        case .unknownScenario(let name, let available):
            return "unknown scenario \"\(name)\"; available: \(available.joined(separator: ", "))"
        case .invalidParameter(let name, let value, let expected):
            return "\(name) \(Self.format(value)) is out of range, expected \(expected)"
        }
    }
}
