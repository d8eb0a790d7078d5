/// A pick did not resolve to exactly one candidate.
public enum PickerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Nothing in the list matches (`available` describes the list).
    case noMatch(choice: PickerChoice, available: [String])
    /// More than one candidate matches.
    case ambiguous(choice: PickerChoice, matches: [String])

    /// What went wrong and what to do.
    public var description: String {
        switch self {
        case .noMatch(let choice, let available):
            if available.isEmpty { return "no accessory matches \(choice): none found yet" }
            return "no accessory matches \(choice); found: " + available.joined(separator: "; ")
        case .ambiguous(let choice, let matches):
            return "\(choice) matches \(matches.count) accessories (" + matches.joined(separator: "; ")
                + "): pick by address instead"
        }
    }
}
