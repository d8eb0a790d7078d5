#if canImport(Glibc)
import Glibc
#endif

/// A D-Bus failure: an error reply (`name` as the service sent it, e.g.
/// `org.bluez.Error.Failed`, `org.freedesktop.DBus.Error.AccessDenied`) or a local one (the
/// bus could not be reached, a message could not be built).
public struct DBusError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The error name.
    public var name: String
    /// The error message.
    public var message: String
    /// The errno of a local failure (`nil` for error replies).
    public var errno: Int32?

    /// The name of local failures that carry an errno.
    public static let local = "nearby.DBus.Error.Local"
    /// A message that could not be read.
    public static let malformed = "nearby.DBus.Error.Malformed"
    /// libsystemd (`libsystemd.so.0`, Debian's `libsystemd0`), which has sd-bus, is not
    /// installed or too old: ``DBusConnection/open(_:)`` opens it at first use.
    public static let libraryMissing = "nearby.DBus.Error.LibraryMissing"
    /// The connection to the bus is closed.
    public static let closed = "nearby.DBus.Error.Closed"
    /// The bus daemon refused the call (policy).
    public static let accessDenied = "org.freedesktop.DBus.Error.AccessDenied"
    /// Nobody owns the destination name.
    public static let serviceUnknown = "org.freedesktop.DBus.Error.ServiceUnknown"
    /// The destination has no such object, interface or method.
    public static let unknownObject = "org.freedesktop.DBus.Error.UnknownObject"
    public static let unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
    public static let unknownInterface = "org.freedesktop.DBus.Error.UnknownInterface"
    /// No reply in time (or the connection ended first).
    public static let noReply = "org.freedesktop.DBus.Error.NoReply"
    public static let timeout = "org.freedesktop.DBus.Error.Timeout"

    /// An error reply.
    public init(name: String, message: String) {
        self.name = name
        self.message = message
        self.errno = nil
    }

    /// A local failure of `operation` with `errno`.
    public init(errno code: Int32, operation: String) {
        self.name = Self.local
        self.message = "\(operation): \(String(cString: strerror(code)))"
        self.errno = code
    }

    /// `true` for `org.freedesktop.DBus.Error.UnknownMethod` / `UnknownObject` / `UnknownInterface`.
    public var isUnknownMethod: Bool {
        [Self.unknownMethod, Self.unknownObject, Self.unknownInterface].contains(name)
    }

    /// `name: message`.
    public var description: String { message.isEmpty ? name : "\(name): \(message)" }
}
