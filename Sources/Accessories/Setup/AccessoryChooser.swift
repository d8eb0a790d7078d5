/// A user's (or a script's) command to the picker.
public enum PickerCommand: Sendable, Hashable {
    /// Move the highlight (arrow keys, Home/End).
    case move(AccessoryPicker.Move)
    /// Pick the highlighted candidate (Enter).
    case pickHighlighted
    /// Pick what `choice` designates (a typed number, address or name).
    case pick(PickerChoice)
    /// Give up (q, Esc, Ctrl-C): nothing is stored.
    case cancel
}

/// What changed in the picker, for a chooser to show.
public enum PickerUpdate: Sendable, Hashable {
    /// A new candidate was heard.
    case added(AccessoryCandidate)
    /// A candidate's name, RSSI or last-seen time changed.
    case updated(AccessoryCandidate)
    /// Candidates not heard for a while were dropped.
    case expired([AccessoryCandidate])
    /// The highlight moved.
    case moved
    /// A command could not be carried out (e.g. a number not in the list); the message says why.
    case rejected(String)
}

/// Who picks the accessory during setup: an interactive terminal UI, a script's `--pick`, or
/// a test. ``AccessorySetup/choose(timeout:chooser:)`` owns the ``AccessoryPicker``, calls
/// ``pickerChanged(_:update:)`` after every change and carries out ``commands()``.
public protocol AccessoryChooser: Sendable {
    /// The user's commands; may never finish (a script has none).
    func commands() -> AsyncStream<PickerCommand>
    /// Called after every change; show it and/or return a candidate to pick it now.
    func pickerChanged(_ picker: AccessoryPicker, update: PickerUpdate) -> AccessoryCandidate?
    /// The choice a script made in advance (for the error when nothing matched it), if any.
    var scriptedChoice: PickerChoice? { get }
}

extension AccessoryChooser {
    /// No scripted choice.
    public var scriptedChoice: PickerChoice? { nil }
}

/// Picks without a user: the first candidate `choice` designates, as soon as it is heard
/// (`nearby setup --pick first|ADDRESS|NAME`). A name that matches two candidates waits
/// (and fails at the timeout as ambiguous) rather than guess.
public struct ScriptedChooser: AccessoryChooser {
    /// What to pick.
    public let choice: PickerChoice
    private let onChange: (@Sendable (AccessoryPicker, PickerUpdate) -> Void)?

    /// A chooser for `choice`; `onChange` sees every update (to print progress).
    public init(_ choice: PickerChoice, onChange: (@Sendable (AccessoryPicker, PickerUpdate) -> Void)? = nil) {
        self.choice = choice
        self.onChange = onChange
    }

    /// A stream that never yields and never ends.
    public func commands() -> AsyncStream<PickerCommand> {
        AsyncStream { _ in }
    }

    /// The candidate ``choice`` designates, once there is exactly one.
    public func pickerChanged(_ picker: AccessoryPicker, update: PickerUpdate) -> AccessoryCandidate? {
        onChange?(picker, update)
        return try? picker.select(choice)
    }

    /// ``choice``.
    public var scriptedChoice: PickerChoice? { choice }
}
