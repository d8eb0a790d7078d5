import Accessories
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A chooser the CLI can also shut down (restore the terminal, stop reading input).
protocol PickerFrontEnd: AccessoryChooser {
    /// Stops reading input and restores the terminal. Idempotent.
    func finish()
}

/// `--pick`: picks without asking and reports what it finds on standard error.
struct ScriptedFrontEnd: PickerFrontEnd {
    let scripted: ScriptedChooser

    init(_ choice: PickerChoice) {
        scripted = ScriptedChooser(choice) { picker, update in
            if case .added(let candidate) = update, let index = picker.candidates.firstIndex(of: candidate) {
                UWBConsole.error("  found \(index + 1). \(candidate)")
            }
        }
    }

    func commands() -> AsyncStream<PickerCommand> { scripted.commands() }
    func pickerChanged(_ picker: AccessoryPicker, update: PickerUpdate) -> AccessoryCandidate? {
        scripted.pickerChanged(picker, update: update)
    }
    var scriptedChoice: PickerChoice? { scripted.choice }
    func finish() {}
}

/// Reads standard input on a thread of its own (never a cooperative one), with `poll` so it
/// can stop; hands each chunk to `handle`.
final class InputReader: Sendable {
    private let stopped = Atomic<Bool>(false)

    init(_ handle: @escaping @Sendable ([UInt8]) -> Void, onEnd: @escaping @Sendable () -> Void) {
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 256)
            while !stopped.load(ordering: .relaxed) {
                var descriptor = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
                let ready = poll(&descriptor, 1, 100)
                if ready < 0 && errno == EINTR { continue }
                if ready <= 0 { continue }
                let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress!, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 {
                    onEnd()
                    return
                }
                handle(Array(buffer[0..<count]))
            }
        }
        thread.start()
    }

    func stop() { stopped.store(true, ordering: .relaxed) }
}

/// No terminal (or NO_COLOR): the list as plain lines on standard error, choices as lines
/// from standard input (a number, an address or a name; q cancels).
final class LinePicker: PickerFrontEnd, @unchecked Sendable {
    // @unchecked: `reader` is set once in init.
    private let stream: AsyncStream<PickerCommand>
    private var reader: InputReader?

    init() {
        let (stream, continuation) = AsyncStream<PickerCommand>.makeStream()
        self.stream = stream
        let pending = Mutex<[UInt8]>([])
        reader = InputReader({ bytes in
            let lines: [String] = pending.withLock { buffer in
                buffer.append(contentsOf: bytes)
                var lines: [String] = []
                while let newline = buffer.firstIndex(of: 0x0A) {
                    lines.append(String(decoding: buffer[..<newline], as: UTF8.self))
                    buffer.removeSubrange(...newline)
                }
                return lines
            }
            for line in lines {
                let text = line.trimmingCharacters(in: .whitespacesAndNewlines)
                if text.isEmpty { continue }
                continuation.yield(text.lowercased() == "q" ? .cancel : .pick(PickerChoice(parsing: text)))
            }
        }, onEnd: {})
        UWBConsole.error("type the number, address or name of the accessory and Enter (q cancels):")
    }

    func commands() -> AsyncStream<PickerCommand> { stream }

    func pickerChanged(_ picker: AccessoryPicker, update: PickerUpdate) -> AccessoryCandidate? {
        switch update {
        case .added(let candidate):
            if let index = picker.candidates.firstIndex(of: candidate) { UWBConsole.error("  \(index + 1). \(candidate)") }
        case .expired(let gone):
            for candidate in gone { UWBConsole.error("  gone: \(candidate)") }
            if !gone.isEmpty {
                UWBConsole.error("  now: " + picker.candidates.enumerated().map { "\($0.offset + 1). \($0.element.displayName)" }.joined(separator: ", "))
            }
        case .rejected(let message):
            UWBConsole.error("  \(message)")
        case .updated, .moved:
            break
        }
        return nil
    }

    func finish() { reader?.stop() }
}

/// A terminal: the list redrawn in place (ANSI) on standard error, keys read in
/// non-canonical mode without echo (the settings are restored by ``finish()``, at exit and
/// on Ctrl-C, which ends the setup through SIGINT).
final class TerminalPicker: PickerFrontEnd, @unchecked Sendable {
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
    static var isInteractive: Bool {
        let environment = ProcessInfo.processInfo.environment
        return isatty(0) == 1 && isatty(2) == 1 && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
    }

    init() {
        (stream, continuation) = AsyncStream<PickerCommand>.makeStream()
        TerminalMode.enterNonCanonical()
        reader = InputReader({ [weak self] bytes in self?.keys(bytes) }, onEnd: {})
        UWBConsole.error("searching… (↑/↓ move, Enter picks, a number + Enter picks that row, q cancels)")
    }

    func commands() -> AsyncStream<PickerCommand> { stream }

    func pickerChanged(_ picker: AccessoryPicker, update: PickerUpdate) -> AccessoryCandidate? {
        let now = ContinuousClock.now
        let skip: Bool = state.withLock { state in
            if case .updated = update, let last = state.lastRender, now - last < .milliseconds(250) { return true }
            state.lastRender = now
            return false
        }
        if !skip { render(picker, note: { if case .rejected(let message) = update { return message } else { return nil } }()) }
        return nil
    }

    func finish() {
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
        FileHandle.standardError.write(Data(text.utf8))
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

/// The terminal's settings while the picker runs: non-canonical, no echo (signals stay on, so
/// Ctrl-C still interrupts). Restored by ``restore()`` and, whatever happens, at exit.
enum TerminalMode {
    private static let saved = Mutex<termios?>(nil)

    static func enterNonCanonical() {
        var original = termios()
        guard tcgetattr(0, &original) == 0 else { return }
        let first = saved.withLock { saved -> Bool in
            defer { if saved == nil { saved = original } }
            return saved == nil
        }
        if first { atexit { TerminalMode.restore() } }
        var raw = original
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { characters in
            characters[Int(VMIN)] = 1
            characters[Int(VTIME)] = 0
        }
        tcsetattr(0, TCSANOW, &raw)
        FileHandle.standardError.write(Data("\u{1B}[?25l".utf8))  // hide the cursor
    }

    static func restore() {
        guard var original = saved.withLock({ saved -> termios? in
            defer { saved = nil }
            return saved
        }) else { return }
        tcsetattr(0, TCSANOW, &original)
        FileHandle.standardError.write(Data("\u{1B}[?25h".utf8))  // show the cursor
    }
}
