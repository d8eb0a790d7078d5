/// A hook definition that cannot run; the message names the field and says how to fix it.
public struct HookDefinitionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The field that is wrong (`on`, `zone`, `accessory`, `run`, `timeout`, `cooldown`).
    public var field: String
    /// What is wrong and what to write instead.
    public var message: String

    /// Creates an error about `field`.
    public init(field: String, _ message: String) {
        self.field = field
        self.message = message
    }

    /// `field: message`.
    public var description: String { "\(field): \(message)" }
}
