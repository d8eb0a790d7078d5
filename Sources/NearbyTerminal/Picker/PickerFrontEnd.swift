public import Accessories

/// A chooser a program can also shut down (restore the terminal, stop reading input).
public protocol PickerFrontEnd: AccessoryChooser {
    /// Stops reading input and restores the terminal. Idempotent.
    func finish()
}

/// The front-ends `nearby setup` chooses from.
public enum PickerFrontEnds {
    /// The front-end for a setup: ``ScriptedFrontEnd`` when `pick` is given (a script's
    /// `first`, address or name; numbers are not allowed), ``TerminalPicker`` on a capable
    /// terminal (``TerminalPicker/isInteractive``), else ``LinePicker``.
    public static func make(pick: String?) -> any PickerFrontEnd {
        if let pick { return ScriptedFrontEnd(PickerChoice(parsing: pick, allowNumbers: false)) }
        return TerminalPicker.isInteractive ? TerminalPicker() : LinePicker()
    }
}

/// `--pick`: picks without asking and reports what it finds on standard error.
public struct ScriptedFrontEnd: PickerFrontEnd {
    /// The chooser doing the work.
    public let scripted: ScriptedChooser

    /// Picks what `choice` designates as soon as it is heard.
    public init(_ choice: PickerChoice) {
        scripted = ScriptedChooser(choice) { picker, update in
            if case .added(let candidate) = update, let index = picker.candidates.firstIndex(of: candidate) {
                Console.error("  found \(index + 1). \(candidate)")
            }
        }
    }

    /// None: a script does not type.
    public func commands() -> AsyncStream<PickerCommand> { scripted.commands() }
    /// Reports new candidates; returns the one `choice` designates once heard.
    public func pickerChanged(_ picker: AccessoryPicker, update: PickerUpdate) -> AccessoryCandidate? {
        scripted.pickerChanged(picker, update: update)
    }
    /// The choice given.
    public var scriptedChoice: PickerChoice? { scripted.choice }
    /// Nothing to stop.
    public func finish() {}
}
