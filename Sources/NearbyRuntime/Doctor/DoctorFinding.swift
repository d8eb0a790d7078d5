/// One result of `nearby doctor`: what was checked, how it stands, and what to do.
public struct DoctorFinding: Sendable, Hashable {
    /// How a finding stands.
    public enum Status: String, Sendable, Hashable {
        /// Works.
        case ok
        /// For information; nothing to do.
        case info
        /// May get in the way; ranging can still work.
        case warning
        /// Blocks ranging until fixed (`nearby doctor` exits 1).
        case error
    }

    /// The check's short name (`config`, `usb`, `serial`, `bluetooth`, `adapter`, `capability`,
    /// `bluetoothd`, `hci`).
    public var check: String
    /// How it stands.
    public var status: Status
    /// What was found.
    public var message: String
    /// What to do, if anything.
    public var fix: String?

    /// A finding of `check` (a short name), how it stands, what was found and what to do.
    public init(_ check: String, _ status: Status, _ message: String, fix: String? = nil) {
        self.check = check
        self.status = status
        self.message = message
        self.fix = fix
    }
}
