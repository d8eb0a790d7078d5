import Foundation
public import UCI

extension UCITextDecoder {
    /// What `nearby uci decode` decodes: each argument, labelled `argument N`; without
    /// arguments, every line of `lines` (standard input by default) that is not blank,
    /// labelled `line N` (counting every line read).
    public static func inputs(arguments: [String], lines readLine: () -> String? = { Swift.readLine() }) -> [(label: String, text: String)] {
        var inputs: [(label: String, text: String)] = arguments.enumerated().map { ("argument \($0.offset + 1)", $0.element) }
        if inputs.isEmpty {
            var lineNumber = 0
            while let line = readLine() {
                lineNumber += 1
                if !line.trimmingCharacters(in: .whitespaces).isEmpty { inputs.append(("line \(lineNumber)", line)) }
            }
        }
        return inputs
    }

    /// Prints decoded lines: messages on standard output, `error: ...` and `warning: ...` on
    /// standard error.
    public static func show(_ lines: [Line]) {
        for line in lines {
            switch line {
            case .message(let text): print(text)
            case .error(let text): Console.error("error: \(text)")
            case .warning(let text): Console.error("warning: \(text)")
            }
        }
    }
}
