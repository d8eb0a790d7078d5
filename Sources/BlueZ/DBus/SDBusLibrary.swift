import CSDBus
import NearbySupport

/// sd-bus's functions (libsystemd), resolved at first use with `dlopen` + `dlsym` instead of
/// being linked: a `nearby` that never uses the BlueZ backend (`--hci bluez`) does not load
/// libsystemd, nor the libgcrypt, liblz4, libzstd, liblzma and libcap it pulls in (about 0.5 MB
/// resident; specs/runtime.md §6.1).
///
/// ``shared`` opens `libsystemd.so.0` (the SONAME Debian's `libsystemd0` ships) once, when the
/// first ``DBusConnection`` opens, thread-safely (a `static let`). The library stays loaded for
/// the life of the process. Each property is a typed C function pointer whose type comes from
/// the header's own declaration (`CSDBus/shim.h`), so a call costs what a call through the PLT
/// costs and nothing is boxed.
struct SDBusLibrary: Sendable {
    /// The SONAME ``shared`` opens.
    static let soname = "libsystemd.so.0"

    /// The library, or why it cannot be used (kept: every later use reports the same error).
    static let shared: Result<SDBusLibrary, DBusError> = Result { () throws(DBusError) -> SDBusLibrary in
        try SDBusLibrary(soname: soname)
    }

    /// ``shared``'s library.
    /// - Throws: ``DBusError`` named ``DBusError/libraryMissing`` when libsystemd cannot be
    ///   opened or lacks a function.
    static func load() throws(DBusError) -> SDBusLibrary { try shared.get() }

    /// ``shared``'s library, for code that only runs on a bus, a message or a slot that an open
    /// ``DBusConnection`` made (so ``load()`` succeeded before).
    static var loaded: SDBusLibrary {
        switch shared {
        case .success(let library): return library
        case .failure(let error): preconditionFailure("sd-bus used before DBusConnection.open loaded it: \(error)")
        }
    }

    let addFallback: sd_bus_add_fallback_fn
    let addMatch: sd_bus_add_match_fn
    let callAsync: sd_bus_call_async_fn
    let errorFree: sd_bus_error_free_fn
    let errorSet: sd_bus_error_set_fn
    let flushCloseUnref: sd_bus_flush_close_unref_fn
    let getEvents: sd_bus_get_events_fn
    let getFd: sd_bus_get_fd_fn
    let getTimeout: sd_bus_get_timeout_fn
    let getUniqueName: sd_bus_get_unique_name_fn
    let messageAppendArray: sd_bus_message_append_array_fn
    let messageAppendBasic: sd_bus_message_append_basic_fn
    let messageCloseContainer: sd_bus_message_close_container_fn
    let messageEnterContainer: sd_bus_message_enter_container_fn
    let messageExitContainer: sd_bus_message_exit_container_fn
    let messageGetError: sd_bus_message_get_error_fn
    let messageGetInterface: sd_bus_message_get_interface_fn
    let messageGetMember: sd_bus_message_get_member_fn
    let messageGetPath: sd_bus_message_get_path_fn
    let messageGetSender: sd_bus_message_get_sender_fn
    let messageGetType: sd_bus_message_get_type_fn
    let messageIsMethodError: sd_bus_message_is_method_error_fn
    let messageNewMethodCall: sd_bus_message_new_method_call_fn
    let messageNewMethodReturn: sd_bus_message_new_method_return_fn
    let messageNewSignal: sd_bus_message_new_signal_fn
    let messageOpenContainer: sd_bus_message_open_container_fn
    let messagePeekType: sd_bus_message_peek_type_fn
    let messageReadArray: sd_bus_message_read_array_fn
    let messageReadBasic: sd_bus_message_read_basic_fn
    let messageRef: sd_bus_message_ref_fn
    let messageRewind: sd_bus_message_rewind_fn
    let messageUnref: sd_bus_message_unref_fn
    let negotiateFds: sd_bus_negotiate_fds_fn
    let new: sd_bus_new_fn
    let openSystem: sd_bus_open_system_fn
    let process: sd_bus_process_fn
    let replyMethodError: sd_bus_reply_method_error_fn
    let send: sd_bus_send_fn
    let setAddress: sd_bus_set_address_fn
    let setBusClient: sd_bus_set_bus_client_fn
    let start: sd_bus_start_fn
    let unref: sd_bus_unref_fn
    let wait: sd_bus_wait_fn

    /// Opens `soname` and resolves every function (tests pass a name that does not exist).
    /// - Throws: ``DBusError`` named ``DBusError/libraryMissing`` saying which library or
    ///   function is missing and which Debian package provides it.
    init(soname: String) throws(DBusError) {
        let library: DynamicLibrary
        do {
            library = try DynamicLibrary(soname: soname)
        } catch {
            throw DBusError(name: DBusError.libraryMissing, message: Self.missing(error))
        }
        func resolve<F>(_ name: String) throws(DBusError) -> F {
            do {
                return try library.function(name)
            } catch {
                throw DBusError(
                    name: DBusError.libraryMissing, message: "BlueZ needs libsystemd 222 or later (\(error.text): apt install libsystemd0)")
            }
        }
        addFallback = try resolve("sd_bus_add_fallback")
        addMatch = try resolve("sd_bus_add_match")
        callAsync = try resolve("sd_bus_call_async")
        errorFree = try resolve("sd_bus_error_free")
        errorSet = try resolve("sd_bus_error_set")
        flushCloseUnref = try resolve("sd_bus_flush_close_unref")
        getEvents = try resolve("sd_bus_get_events")
        getFd = try resolve("sd_bus_get_fd")
        getTimeout = try resolve("sd_bus_get_timeout")
        getUniqueName = try resolve("sd_bus_get_unique_name")
        messageAppendArray = try resolve("sd_bus_message_append_array")
        messageAppendBasic = try resolve("sd_bus_message_append_basic")
        messageCloseContainer = try resolve("sd_bus_message_close_container")
        messageEnterContainer = try resolve("sd_bus_message_enter_container")
        messageExitContainer = try resolve("sd_bus_message_exit_container")
        messageGetError = try resolve("sd_bus_message_get_error")
        messageGetInterface = try resolve("sd_bus_message_get_interface")
        messageGetMember = try resolve("sd_bus_message_get_member")
        messageGetPath = try resolve("sd_bus_message_get_path")
        messageGetSender = try resolve("sd_bus_message_get_sender")
        messageGetType = try resolve("sd_bus_message_get_type")
        messageIsMethodError = try resolve("sd_bus_message_is_method_error")
        messageNewMethodCall = try resolve("sd_bus_message_new_method_call")
        messageNewMethodReturn = try resolve("sd_bus_message_new_method_return")
        messageNewSignal = try resolve("sd_bus_message_new_signal")
        messageOpenContainer = try resolve("sd_bus_message_open_container")
        messagePeekType = try resolve("sd_bus_message_peek_type")
        messageReadArray = try resolve("sd_bus_message_read_array")
        messageReadBasic = try resolve("sd_bus_message_read_basic")
        messageRef = try resolve("sd_bus_message_ref")
        messageRewind = try resolve("sd_bus_message_rewind")
        messageUnref = try resolve("sd_bus_message_unref")
        negotiateFds = try resolve("sd_bus_negotiate_fds")
        new = try resolve("sd_bus_new")
        openSystem = try resolve("sd_bus_open_system")
        process = try resolve("sd_bus_process")
        replyMethodError = try resolve("sd_bus_reply_method_error")
        send = try resolve("sd_bus_send")
        setAddress = try resolve("sd_bus_set_address")
        setBusClient = try resolve("sd_bus_set_bus_client")
        start = try resolve("sd_bus_start")
        unref = try resolve("sd_bus_unref")
        wait = try resolve("sd_bus_wait")
    }

    /// `BlueZ needs libsystemd (libsystemd.so.0 not found: apt install libsystemd0)`, or with
    /// the loader's reason (`dlerror()`) when the file exists but cannot be loaded.
    static func missing(_ failure: DynamicLibrary.Failure) -> String {
        "BlueZ needs libsystemd (\(failure.text): apt install libsystemd0)"
    }
}

/// The sd-bus functions, for code that runs on an open ``DBusConnection``'s bus or messages
/// (``SDBusLibrary/loaded``).
var sdBus: SDBusLibrary { SDBusLibrary.loaded }
