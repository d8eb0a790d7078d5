/// Checks the two things in a TOML text that make toml++ (inside TOMLKit) assert instead of
/// reporting a syntax error, before the text reaches it (both found by fuzzing, specs/fuzzing.md):
///
/// - a control character (U+0000-U+001F and U+007F, but tab, line feed and carriage return):
///   TOML allows none anywhere (a string spells it `\uXXXX`);
/// - a table header whose first key does not start like a key (`[[[a]]]`, `[ {`): after `[` or
///   `[[` and blanks, TOML wants a bare key character or a quote.
///
/// Strings, comments and multi-line arrays are followed, so a `[` inside them is not taken for a
/// header. Anything else is left to the TOML parser.
enum TOMLPrecheck {
    /// A problem: where and what to do.
    struct Problem: Equatable {
        var line: Int
        var column: Int
        var message: String
    }

    private enum State {
        case normal, comment, basic, literal, multiBasic, multiLiteral
    }

    /// The first problem in `text`, `nil` if toml++ can be given it.
    static func firstProblem(in text: String) -> Problem? {
        let scalars = Array(text.unicodeScalars)
        var state = State.normal
        var depth = 0  // open brackets outside strings and comments
        var line = 1
        var column = 0
        var atLineStart = true
        var index = scalars.first == "\u{FEFF}" ? 1 : 0  // a byte-order mark, which TOML parsers skip
        func starts(_ delimiter: String, at position: Int) -> Bool {
            let delimiter = Array(delimiter.unicodeScalars)
            return position + delimiter.count <= scalars.count && Array(scalars[position..<(position + delimiter.count)]) == delimiter
        }
        while index < scalars.count {
            let scalar = scalars[index]
            column += 1
            switch scalar.value {
            case 0x0A:
                line += 1
                column = 0
                atLineStart = true
                if state == .comment || state == .basic || state == .literal { state = .normal }
                index += 1
                continue
            case 0x09, 0x0D:
                break
            case 0x00...0x1F, 0x7F:
                let digits = String(scalar.value, radix: 16, uppercase: true)
                let code = String(repeating: "0", count: max(0, 4 - digits.count)) + digits
                return Problem(
                    line: line, column: column,
                    message: "control character U+\(code) is not allowed; remove it (in a string, write it as \\u\(code))")
            default:
                break
            }
            switch state {
            case .comment:
                break
            case .basic:
                if scalar == "\\" {
                    index += 1
                    column += 1
                } else if scalar == "\"" {
                    state = .normal
                }
            case .literal:
                if scalar == "'" { state = .normal }
            case .multiBasic:
                if scalar == "\\" {
                    index += 1
                    column += 1
                } else if starts("\"\"\"", at: index) {
                    state = .normal
                    index += 2
                    column += 2
                }
            case .multiLiteral:
                if starts("'''", at: index) {
                    state = .normal
                    index += 2
                    column += 2
                }
            case .normal:
                if atLineStart, scalar != " ", scalar != "\t" {
                    atLineStart = false
                    if scalar == "[", depth == 0, let problem = header(scalars, from: index, line: line, column: column) {
                        return problem
                    }
                }
                switch scalar {
                case "#": state = .comment
                case "[": depth += 1
                case "]": depth = max(0, depth - 1)
                case "\"":
                    if starts("\"\"\"", at: index) {
                        state = .multiBasic
                        index += 2
                        column += 2
                    } else {
                        state = .basic
                    }
                case "'":
                    if starts("'''", at: index) {
                        state = .multiLiteral
                        index += 2
                        column += 2
                    } else {
                        state = .literal
                    }
                default: break
                }
            }
            index += 1
        }
        return nil
    }

    /// A problem with the table header starting at `start` (a `[` at the start of a line).
    private static func header(_ scalars: [Unicode.Scalar], from start: Int, line: Int, column: Int) -> Problem? {
        var position = start + 1
        if position < scalars.count, scalars[position] == "[" { position += 1 }
        while position < scalars.count, scalars[position] == " " || scalars[position] == "\t" { position += 1 }
        guard position < scalars.count else {
            return Problem(line: line, column: column, message: "the table header is not closed; write [name] or [[name]]")
        }
        let first = scalars[position]
        let isKeyStart = first == "\"" || first == "'" || first == "_" || first == "-"
            || ("a"..."z").contains(first) || ("A"..."Z").contains(first) || ("0"..."9").contains(first)
        guard isKeyStart else {
            return Problem(
                line: line, column: column + (position - start),
                message: "a table header needs a name: [name] or [[name]] (a bare key, or a quoted one), not \"\(first.escaped(asASCII: true))\"")
        }
        return nil
    }
}
