/// An error already told to the user (on standard error): the program should exit with
/// ``status`` and say nothing more.
public struct TerminalExit: Error, Sendable, Hashable, CustomStringConvertible {
    /// The process exit status (1: the command failed; sysexits(3) codes otherwise).
    public var status: Int32

    /// An exit with `status`.
    public init(_ status: Int32) { self.status = status }

    /// 1: the command ran and failed.
    public static let failure = TerminalExit(1)

    /// `exit status N`.
    public var description: String { "exit status \(status)" }
}
