public import Accessories
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A terminal: the list redrawn in place (ANSI) on standard error, keys read in
/// non-canonical mode without echo (the settings are restored by ``finish()``, at exit and
/// on Ctrl-C, which ends the setup through SIGINT).
public final class TerminalPicker: PickerFrontEnd, @unchecked Sendable {
    // @unchecked: mutable state lives in `state` (a Mutex); `reader` is set once in init.
    private struct State {
        var renderedLines = 0
        var lastRender: ContinuousClock.Instant?
        var typed = ""
        var escape: [UInt8] = []
        var finished = false
    }

    private let state = Mutex(State())
    private let stream: AsyncStream<PickerCommand>
    private let continuation: AsyncStream<PickerCommand>.Continuation
    private var reader: InputReader?

    /// Standard input and standard error are terminals, NO_COLOR is unset and TERM is not dumb.
    public static var isInteractive: Bool {
        let environment = ProcessInfo.processInfo.environment
        return isatty(0) == 1 && isatty(2) == 1 && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
    }

    /// Puts the terminal in non-canonical mode and starts reading keys.
    public init() {
        (stream, continuation) = AsyncStream<PickerCommand>.makeStream()
        TerminalMode.enterNonCanonical()
        reader = InputReader({ [weak self] bytes in self?.keys(bytes) }, onEnd: {})
        Console.error("searching… (↑/↓ move, Enter picks, a number + Enter picks that row, q cancels)")
    }

    /// The keys pressed, as commands.
    public func commands() -> AsyncStream<PickerCommand> { stream }

    /// Redraws the list (updates at most every 250 ms).
    public func pickerChanged(_ picker: AccessoryPicker, update: PickerUpdate) -> AccessoryCandidate? {
        let now = ContinuousClock.now
        let skip: Bool = state.withLock { state in
            if case .updated = update, let last = state.lastRender, now - last < .milliseconds(250) { return true }
            state.lastRender = now
            return false
        }
        if !skip { render(picker, note: { if case .rejected(let message) = update { return message } else { return nil } }()) }
        return nil
    }

    /// Stops reading keys and restores the terminal.
    public func finish() {
        let first = state.withLock { state -> Bool in
            defer { state.finished = true }
            return !state.finished
        }
        guard first else { return }
        reader?.stop()
        TerminalMode.restore()
        continuation.finish()
    }

    private func render(_ picker: AccessoryPicker, note: String?) {
        var lines: [String] = []
        if picker.candidates.isEmpty { lines.append("  (nothing found yet)") }
        for (index, candidate) in picker.candidates.enumerated() {
            let row = "\(index + 1). \(candidate)"
            lines.append(index == picker.highlightedIndex ? "\u{1B}[7m> \(row)\u{1B}[0m" : "  \(row)")
        }
        let typed = state.withLock { $0.typed }
        if !typed.isEmpty { lines.append("  pick number: \(typed)") }
        if let note { lines.append("  \(note)") }
        let previous = state.withLock { state -> Int in
            defer { state.renderedLines = lines.count }
            return state.renderedLines
        }
        var text = previous > 0 ? "\u{1B}[\(previous)F\u{1B}[J" : ""
        text += lines.map { $0 + "\n" }.joined()
        Console.write(text, to: STDERR_FILENO)
    }

    /// Decodes keys: arrows (ESC [ A/B/H/F, ESC [ 1~/4~), j/k, digits, Backspace, Enter, q, Esc.
    private func keys(_ bytes: [UInt8]) {
        var commands: [PickerCommand] = []
        state.withLock { state in
            for byte in bytes {
                if !state.escape.isEmpty || byte == 0x1B {
                    state.escape.append(byte)
                    let sequence = state.escape
                    if sequence.count == 1 { continue }
                    if sequence[1] != UInt8(ascii: "[") && sequence[1] != UInt8(ascii: "O") {
                        state.escape = []
                        commands.append(.cancel)
                        continue
                    }
                    guard sequence.count >= 3 else { continue }
                    let last = sequence[sequence.count - 1]
                    guard (0x40...0x7E).contains(last) else { continue }
                    state.escape = []
                    switch (last, sequence.count) {
                    case (UInt8(ascii: "A"), _): commands.append(.move(.up))
                    case (UInt8(ascii: "B"), _): commands.append(.move(.down))
                    case (UInt8(ascii: "H"), _): commands.append(.move(.first))
                    case (UInt8(ascii: "F"), _): commands.append(.move(.last))
                    case (UInt8(ascii: "~"), 4) where sequence[2] == UInt8(ascii: "1") || sequence[2] == UInt8(ascii: "7"):
                        commands.append(.move(.first))
                    case (UInt8(ascii: "~"), 4) where sequence[2] == UInt8(ascii: "4") || sequence[2] == UInt8(ascii: "8"):
                        commands.append(.move(.last))
                    default: break
                    }
                    continue
                }
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"):
                    state.typed.append(Character(UnicodeScalar(byte)))
                case 0x7F, 0x08:
                    if !state.typed.isEmpty { state.typed.removeLast() }
                case 0x0D, 0x0A:
                    if let number = Int(state.typed) {
                        commands.append(.pick(.number(number)))
                    } else {
                        commands.append(.pickHighlighted)
                    }
                    state.typed = ""
                case UInt8(ascii: "k"): commands.append(.move(.up))
                case UInt8(ascii: "j"): commands.append(.move(.down))
                case UInt8(ascii: "q"), 0x03, 0x04: commands.append(.cancel)
                default: break
                }
            }
            // A lone Esc (nothing followed in this read) cancels.
            if state.escape == [0x1B] {
                state.escape = []
                commands.append(.cancel)
            }
        }
        for command in commands { continuation.yield(command) }
    }
}
