public import Accessories
import Foundation
import Synchronization

/// No terminal (or NO_COLOR): the list as plain lines on standard error, choices as lines
/// from standard input (a number, an address or a name; q cancels).
public final class LinePicker: PickerFrontEnd, @unchecked Sendable {
    // @unchecked: `reader` is set once in init.
    private let stream: AsyncStream<PickerCommand>
    private var reader: InputReader?

    /// Starts reading standard input and says what to type.
    public init() {
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
        Console.error("type the number, address or name of the accessory and Enter (q cancels):")
    }

    /// The lines typed, as commands.
    public func commands() -> AsyncStream<PickerCommand> { stream }

    /// Prints new, gone and rejected candidates on standard error.
    public func pickerChanged(_ picker: AccessoryPicker, update: PickerUpdate) -> AccessoryCandidate? {
        switch update {
        case .added(let candidate):
            if let index = picker.candidates.firstIndex(of: candidate) { Console.error("  \(index + 1). \(candidate)") }
        case .expired(let gone):
            for candidate in gone { Console.error("  gone: \(candidate)") }
            if !gone.isEmpty {
                Console.error("  now: " + picker.candidates.enumerated().map { "\($0.offset + 1). \($0.element.displayName)" }.joined(separator: ", "))
            }
        case .rejected(let message):
            Console.error("  \(message)")
        case .updated, .moved:
            break
        }
        return nil
    }

    /// Stops reading standard input.
    public func finish() { reader?.stop() }
}
