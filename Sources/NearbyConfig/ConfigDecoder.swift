import TOMLKit

/// Walks a parsed TOML table, converting values and collecting every problem (with its line
/// from ``KeyLocator``) instead of stopping at the first.
final class ConfigDecoder {
    private(set) var issues: [ConfigIssue] = []
    private let locator: KeyLocator

    init(locator: KeyLocator) {
        self.locator = locator
    }

    func issue(_ path: String, _ message: String) {
        issues.append(ConfigIssue(line: locator.line(of: path), key: path, message: message))
    }

    static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : path + "." + key }

    /// Reports every key of `table` not in `allowed`, suggesting the closest allowed one; keys in
    /// `removed` (no longer used, reported by the caller with what to do instead) are skipped.
    func rejectUnknownKeys(_ table: TOMLTable, at path: String, allowed: [String], removed: [String] = []) {
        for key in table.keys.sorted() where !allowed.contains(key) && !removed.contains(key) {
            var message = "unknown key '\(key)'"
            if let guess = Self.closest(to: key, in: allowed) { message += " (did you mean '\(guess)'?)" }
            message += path.isEmpty
                ? "; the sections are \(allowed.map { "[\($0)]" }.joined(separator: ", "))"
                : "; [\(Self.section(path))] accepts \(allowed.joined(separator: ", "))"
            issue(Self.join(path, key), message)
        }
    }

    private static func section(_ path: String) -> String {
        // hook[2] -> hook (the header the user wrote is [[hook]]).
        var result = ""
        var skipping = false
        for character in path {
            if character == "[" { skipping = true } else if character == "]" { skipping = false } else if !skipping { result.append(character) }
        }
        return result
    }

    private func mismatch(_ path: String, expected: String, found value: any TOMLValueConvertible) {
        issue(path, "expected \(expected), found \(Self.describe(value))")
    }

    static func describe(_ value: any TOMLValueConvertible) -> String {
        switch value.type {
        case .string: "a string (\"\(value.string ?? "")\")"
        case .int: "an integer (\(value.int.map(String.init) ?? ""))"
        case .double: "a number (\(value.double.map { "\($0)" } ?? ""))"
        case .bool: "a boolean (\(value.bool.map(String.init) ?? ""))"
        case .array: "an array"
        case .table: "a table"
        case .date: "a date"
        case .time: "a time"
        case .dateTime: "a date-time"
        }
    }

    // MARK: Typed accessors: nil when absent or wrong (the problem is recorded).

    func table(_ parent: TOMLTable, _ key: String, at path: String) -> TOMLTable? {
        guard let value = parent[key] else { return nil }
        guard let table = value.table else {
            mismatch(Self.join(path, key), expected: "a table ([\(Self.section(Self.join(path, key)))])", found: value)
            return nil
        }
        return table
    }

    func string(_ table: TOMLTable, _ key: String, at path: String, expected: String = "a string") -> String? {
        guard let value = table[key] else { return nil }
        guard let string = value.string else {
            mismatch(Self.join(path, key), expected: expected, found: value)
            return nil
        }
        return string
    }

    func bool(_ table: TOMLTable, _ key: String, at path: String) -> Bool? {
        guard let value = table[key] else { return nil }
        guard let bool = value.bool else {
            mismatch(Self.join(path, key), expected: "true or false", found: value)
            return nil
        }
        return bool
    }

    /// A number (integer or float) satisfying `isValid`; `expected` describes valid values.
    func number(_ table: TOMLTable, _ key: String, at path: String, expected: String, isValid: (Double) -> Bool) -> Double? {
        guard let value = table[key] else { return nil }
        let full = Self.join(path, key)
        guard let number = Self.number(value) else {
            mismatch(full, expected: expected, found: value)
            return nil
        }
        guard number.isFinite, isValid(number) else {
            issue(full, "\(ConfigDecoder.format(number)) is out of range; expected \(expected)")
            return nil
        }
        return number
    }

    func integer(_ table: TOMLTable, _ key: String, at path: String, expected: String, isValid: (Int) -> Bool) -> Int? {
        guard let value = table[key] else { return nil }
        let full = Self.join(path, key)
        guard let integer = value.int else {
            mismatch(full, expected: expected, found: value)
            return nil
        }
        guard isValid(integer) else {
            issue(full, "\(integer) is out of range; expected \(expected)")
            return nil
        }
        return integer
    }

    func numbers(_ table: TOMLTable, _ key: String, at path: String, expected: String) -> [Double]? {
        array(table, key, at: path, expected: expected, element: "a number") { Self.number($0).flatMap { $0.isFinite ? $0 : nil } }
    }

    func strings(_ table: TOMLTable, _ key: String, at path: String, expected: String) -> [String]? {
        array(table, key, at: path, expected: expected, element: "a string") { $0.string }
    }

    /// An array whose every element `convert` accepts; the first element it rejects is reported
    /// as `key[N]` (1-based) expecting `element`.
    private func array<Element>(
        _ table: TOMLTable, _ key: String, at path: String, expected: String, element: String,
        convert: (any TOMLValueConvertible) -> Element?
    ) -> [Element]? {
        guard let value = table[key] else { return nil }
        let full = Self.join(path, key)
        guard let array = value.array else {
            mismatch(full, expected: expected, found: value)
            return nil
        }
        var result: [Element] = []
        for (index, item) in array.enumerated() {
            guard let converted = convert(item) else {
                mismatch("\(full)[\(index + 1)]", expected: element, found: item)
                return nil
            }
            result.append(converted)
        }
        return result
    }

    private static func number(_ value: any TOMLValueConvertible) -> Double? {
        if let double = value.double { return double }
        if let int = value.int { return Double(int) }
        return nil
    }

    static func format(_ value: Double) -> String { NearbyConfiguration.number(value) }

    /// The allowed key within edit distance 2 of `key`, if any.
    static func closest(to key: String, in allowed: [String]) -> String? {
        let lowered = key.lowercased()
        let scored = allowed.map { ($0, distance(Array(lowered), Array($0))) }
        if let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(1, min(2, key.count / 3)) { return best.0 }
        // A shared stem of 5+ characters (boundary -> boundaries).
        return allowed.first { candidate in
            zip(lowered, candidate).prefix { $0 == $1 }.count >= min(5, max(lowered.count, candidate.count) - 1)
        }
    }

    private static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
