import NearbyBase

/// FiRa session parameters that cannot be sent: every problem found by
/// ``FiRaSessionParameters/validate(for:)``, each naming the field, its app-configuration
/// parameter, the value and what is allowed.
///
/// ```
/// invalid FiRa session parameters (2 problems):
///   channel (CHANNEL_NUMBER, 0x04) = 7: allowed 5, 6, 8, 9, 10, 12, 13 or 14
///   rangingInterval (RANGING_DURATION, 0x09) = 20 ms: a round of 25 slots × 2400 RSTU lasts 50 ms; ...
/// ```
public struct FiRaParameterError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One parameter that is wrong.
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        /// The ``FiRaSessionParameters`` property, e.g. `"channel"`.
        public var field: String
        /// The UCI app-configuration parameter it sets, if one.
        public var parameter: UCIAppConfigID?
        /// The value found, in words with its unit.
        public var value: String
        /// What is allowed instead (and why).
        public var allowed: String

        /// Creates a problem.
        public init(field: String, parameter: UCIAppConfigID?, value: String, allowed: String) {
            self.field = field
            self.parameter = parameter
            self.value = value
            self.allowed = allowed
        }

        /// `"channel (CHANNEL_NUMBER, 0x04) = 7: allowed 5, 6, 8, 9, 10, 12, 13 or 14"`.
        public var description: String {
            let name = parameter.map { id in "\(field) (\(id.name ?? "parameter"), \(Hex.prefixed(id.rawValue)))" } ?? field
            return "\(name) = \(value): \(allowed)"
        }
    }

    /// Every problem, in field order (never empty).
    public var problems: [Problem]

    /// Creates an error from its problems.
    public init(problems: [Problem]) {
        self.problems = problems
    }

    /// One line per problem under a heading.
    public var description: String {
        if problems.count == 1 { return "invalid FiRa session parameter: \(problems[0])" }
        return "invalid FiRa session parameters (\(problems.count) problems):\n"
            + problems.map { "  \($0)" }.joined(separator: "\n")
    }
}
