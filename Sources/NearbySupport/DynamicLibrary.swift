#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A shared library opened at run time with `dlopen`, for a dependency only some commands need
/// (libmosquitto for MQTT, libsystemd for the BlueZ backend): a binary that never uses it does
/// not load it, nor what it pulls in (specs/runtime.md §6.1). The library stays loaded for the
/// life of the process. Each user wraps it in a value of typed C function pointers resolved once
/// and turns ``Failure`` into its own error, naming the Debian package to install.
public struct DynamicLibrary: @unchecked Sendable {
    /// The name given to `dlopen` (a SONAME such as `libmosquitto.so.1`).
    public let soname: String
    private let handle: UnsafeMutableRawPointer

    /// Why a library or one of its functions cannot be used.
    public enum Failure: Error, Sendable, Equatable {
        /// The library is not installed.
        case notFound(soname: String)
        /// The file is there but the loader refused it (`dlerror()`'s text).
        case cannotLoad(soname: String, reason: String)
        /// The library has no function `symbol` (too old).
        case missingSymbol(soname: String, symbol: String)

        /// `libx.so.1 not found`, `libx.so.1 cannot be loaded: <reason>`, or `libx.so.1 has no f`.
        public var text: String {
            switch self {
            case .notFound(let soname): "\(soname) not found"
            case .cannotLoad(let soname, let reason): "\(soname) cannot be loaded: \(reason)"
            case .missingSymbol(let soname, let symbol): "\(soname) has no \(symbol)"
            }
        }

        /// The failure for `dlopen`'s `reason` (`dlerror()`): `notFound` when the loader found
        /// no such file (or said nothing), else `cannotLoad`.
        public static func opening(_ soname: String, reason: String?) -> Failure {
            guard let reason, !reason.contains("No such file") else { return .notFound(soname: soname) }
            return .cannotLoad(soname: soname, reason: reason)
        }
    }

    /// Opens `soname` (`RTLD_NOW | RTLD_LOCAL`).
    /// - Throws: ``Failure/notFound(soname:)`` or ``Failure/cannotLoad(soname:reason:)``.
    public init(soname: String) throws(Failure) {
        guard let handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL) else {
            throw Failure.opening(soname, reason: dlerror().map { String(cString: $0) })
        }
        self.soname = soname
        self.handle = handle
    }

    /// The function `name` as a `@convention(c)` function pointer of type `F` (the caller
    /// names the type the header declares).
    /// - Throws: ``Failure/missingSymbol(soname:symbol:)``.
    public func function<F>(_ name: String, as type: F.Type = F.self) throws(Failure) -> F {
        guard let symbol = dlsym(handle, name) else { throw Failure.missingSymbol(soname: soname, symbol: name) }
        return unsafeBitCast(symbol, to: F.self)
    }
}
