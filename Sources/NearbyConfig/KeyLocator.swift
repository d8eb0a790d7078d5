/// Finds the line of each key in a TOML text, because the TOML library reports lines only for
/// syntax errors. Keys are paths as ``ConfigIssue/key`` spells them (`zones.dwell`,
/// `hook[2].run`); a path that was not written (a missing key) resolves to its nearest written
/// parent (the `[[hook]]` header), else line 1.
///
/// The scan understands table headers, arrays of tables, dotted and quoted keys, comments,
/// multi-line arrays and inline tables, and multi-line strings; it needs no full parse because
/// it only runs on text the TOML parser has accepted.
struct KeyLocator {
    private var lines: [String: Int] = [:]

    init(text: String) {
        var prefix = ""
        var arrayCounts: [String: Int] = [:]
        var openString: String?
        var depth = 0
        var number = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            let line = Substring(raw)
            if let delimiter = openString {
                if line.contains(delimiter) { openString = nil }
                continue
            }
            if depth > 0 {
                depth += Self.depthChange(line)
                continue
            }
            let text = Self.trim(Self.stripComment(line))
            if text.isEmpty { continue }
            if text.hasPrefix("[[") {
                // Counted by the plain name (`hook`); parents that are arrays resolve to their
                // latest element (`a[2].b`).
                let plain = Self.keyPath(text.dropFirst(2).prefix { $0 != "]" })
                let count = (arrayCounts[plain] ?? 0) + 1
                var parent = ""
                var last = plain
                if let dot = plain.lastIndex(of: ".") {
                    parent = Self.resolve(String(plain[..<dot]), arrayCounts) + "."
                    last = String(plain[plain.index(after: dot)...])
                }
                arrayCounts[plain] = count
                prefix = "\(parent)\(last)[\(count)]"
                lines[prefix] = lines[prefix] ?? number
                continue
            }
            if text.hasPrefix("[") {
                prefix = Self.resolve(Self.keyPath(text.dropFirst().prefix { $0 != "]" }), arrayCounts)
                lines[prefix] = lines[prefix] ?? number
                continue
            }
            guard let equals = Self.unquotedEquals(text) else { continue }
            let key = Self.keyPath(text[..<equals])
            let path = prefix.isEmpty ? key : prefix + "." + key
            lines[path] = lines[path] ?? number
            let value = Self.trim(text[text.index(after: equals)...])
            for delimiter in ["\"\"\"", "'''"] where value.hasPrefix(delimiter) {
                if !value.dropFirst(3).contains(delimiter) { openString = delimiter }
            }
            if openString == nil { depth = max(0, Self.depthChange(value)) }
        }
    }

    /// The line of `path`, or of its nearest written parent, or 1.
    func line(of path: String) -> Int {
        var current = path
        while !current.isEmpty {
            if let line = lines[current] { return line }
            if current.hasSuffix("]"), let open = current.lastIndex(of: "[") {
                current = String(current[..<open])
            } else if let dot = current.lastIndex(of: ".") {
                current = String(current[..<dot])
            } else {
                break
            }
        }
        return 1
    }

    /// `a."b.c"` -> `a.b.c` (quotes removed, spaces around dots removed).
    private static func keyPath(_ text: Substring) -> String {
        var parts: [String] = []
        var current = ""
        var quote: Character?
        for character in text {
            if let q = quote {
                if character == q { quote = nil } else { current.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "." {
                parts.append(current)
                current = ""
            } else if character != " " && character != "\t" {
                current.append(character)
            }
        }
        parts.append(current)
        return parts.joined(separator: ".")
    }

    /// Maps `hook.x` to `hook[N].x` when `hook` is an array of tables (the latest element).
    private static func resolve(_ path: String, _ arrayCounts: [String: Int]) -> String {
        let parts = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var resolved: [String] = []
        var plain: [String] = []
        for part in parts {
            plain.append(part)
            let name = plain.joined(separator: ".")
            if let count = arrayCounts[name] { resolved.append("\(part)[\(count)]") } else { resolved.append(part) }
        }
        return resolved.joined(separator: ".")
    }

    private static func stripComment(_ line: Substring) -> Substring {
        var quote: Character?
        var escaped = false
        for index in line.indices {
            let character = line[index]
            if let q = quote {
                if escaped { escaped = false } else if character == "\\" && q == "\"" { escaped = true } else if character == q { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "#" {
                return line[..<index]
            }
        }
        return line
    }

    private static func unquotedEquals(_ text: Substring) -> Substring.Index? {
        var quote: Character?
        for index in text.indices {
            let character = text[index]
            if let q = quote {
                if character == q { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "=" {
                return index
            }
        }
        return nil
    }

    /// Net number of `[`/`{` opened minus closed outside strings and comments.
    private static func depthChange(_ line: Substring) -> Int {
        var change = 0
        var quote: Character?
        var escaped = false
        for character in stripComment(line) {
            if let q = quote {
                if escaped { escaped = false } else if character == "\\" && q == "\"" { escaped = true } else if character == q { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "[" || character == "{" {
                change += 1
            } else if character == "]" || character == "}" {
                change -= 1
            }
        }
        return change
    }

    private static func trim(_ text: Substring) -> Substring {
        var result = text
        while let first = result.first, first == " " || first == "\t" || first == "\r" { result.removeFirst() }
        while let last = result.last, last == " " || last == "\t" || last == "\r" { result.removeLast() }
        return result
    }
}
