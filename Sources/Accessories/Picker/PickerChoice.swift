public import LowEnergy

/// How a script (or a typed line) picks an accessory: `first`, an address, a number or a name.
public enum PickerChoice: Sendable, Hashable, CustomStringConvertible {
    /// The first candidate in the list (the first one heard).
    case first
    /// The candidate with this address (any address type).
    case address(BluetoothAddress)
    /// The candidate at this 1-based position in the list.
    case number(Int)
    /// The candidate whose advertised name, else display name, equals this text (ignoring case).
    case name(String)

    /// Parses `first`, `AA:BB:CC:DD:EE:FF`, a number (1-based) or anything else as a name.
    /// - Parameters:
    ///   - text: what the user typed or gave to `--pick`.
    ///   - allowNumbers: `false` for `--pick` (a number there would be a list position the
    ///     script cannot know; such text is taken as a name).
    public init(parsing text: String, allowNumbers: Bool = true) {
        let trimmed = text.trimmedWhitespace
        if trimmed.lowercased() == "first" {
            self = .first
        } else if let address = BluetoothAddress(trimmed) {
            self = .address(address)
        } else if allowNumbers, let number = Int(trimmed) {
            self = .number(number)
        } else {
            self = .name(trimmed)
        }
    }

    /// `first`, the address, `#N` or `"name"`.
    public var description: String {
        switch self {
        case .first: return "first"
        case .address(let address): return address.description
        case .number(let number): return "#\(number)"
        case .name(let name): return "\"\(name)\""
        }
    }
}

extension String {
    /// The text without leading and trailing whitespace.
    var trimmedWhitespace: String {
        var characters = Substring(self)
        while let first = characters.first, first.isWhitespace { characters.removeFirst() }
        while let last = characters.last, last.isWhitespace { characters.removeLast() }
        return String(characters)
    }
}
