/// Why a request to the virtual UWBS (its world, a virtual peer, a fault, the TCP server) was
/// rejected.
///
/// `code` says what kind of problem it is (switch on it); `description` is a complete sentence
/// for a user: what was wrong, the value, what is accepted.
public struct VirtualUWBSError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// A short identifier, for example `"unknownDevice"`.
        public let rawValue: String
        /// Creates a code from its identifier.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// No device with this identifier is attached to the world.
        public static let unknownDevice = Code(rawValue: "unknownDevice")
        /// The device has no session with this ID (or not in the state the request needs).
        public static let unknownSession = Code(rawValue: "unknownSession")
        /// A virtual peer description or a parameter is malformed or out of range.
        public static let invalidParameter = Code(rawValue: "invalidParameter")
        /// The request needs the manual clock (``SimulationClock/manual``).
        public static let notManualClock = Code(rawValue: "notManualClock")
        /// The device is unplugged (an injected ``VirtualUWBSFault/disconnect(reconnectAfter:)``).
        public static let unplugged = Code(rawValue: "unplugged")
        /// The world was shut down.
        public static let shutDown = Code(rawValue: "shutDown")
        /// The TCP server cannot listen on the address.
        public static let listenFailed = Code(rawValue: "listenFailed")

        /// The identifier.
        public var description: String { rawValue }
    }

    /// What kind of problem it is.
    public var code: Code
    /// What was wrong and what is accepted, in one or two sentences.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
