import CMosquitto
import NearbySupport

/// libmosquitto's functions, resolved at first use with `dlopen` + `dlsym` instead of being
/// linked: a `nearby` that never speaks MQTT does not load libmosquitto, nor the libssl and
/// libcrypto it pulls in (about 1.7 MB resident; specs/runtime.md §6.1).
///
/// ``shared`` opens `libmosquitto.so.1` (the SONAME Debian's `libmosquitto1` ships) once, on
/// first use, thread-safely (a `static let`), and calls `mosquitto_lib_init`. The library stays
/// loaded for the life of the process. Each property is a typed C function pointer whose type
/// comes from the header's own declaration (`CMosquitto/shim.h`), so a call costs what a call
/// through the PLT costs and nothing is boxed.
struct MosquittoLibrary: Sendable {
    /// The SONAME ``shared`` opens.
    static let soname = "libmosquitto.so.1"

    /// The library, or why it cannot be used (kept: every later use reports the same error).
    static let shared: Result<MosquittoLibrary, MQTTError> = Result { () throws(MQTTError) -> MosquittoLibrary in
        let library = try MosquittoLibrary(soname: soname)
        _ = library.libInit()
        return library
    }

    /// ``shared``'s library.
    /// - Throws: ``MQTTError/Code/libraryMissing`` when libmosquitto cannot be opened or lacks a function.
    static func load() throws(MQTTError) -> MosquittoLibrary { try shared.get() }

    let connackString: mosquitto_connack_string_fn
    let connectBindV5: mosquitto_connect_bind_v5_fn
    let connectV5CallbackSet: mosquitto_connect_v5_callback_set_fn
    let destroy: mosquitto_destroy_fn
    let disconnect: mosquitto_disconnect_fn
    let intOption: mosquitto_int_option_fn
    let libInit: mosquitto_lib_init_fn
    let logCallbackSet: mosquitto_log_callback_set_fn
    let loop: mosquitto_loop_fn
    let maxInflightMessagesSet: mosquitto_max_inflight_messages_set_fn
    let messageV5CallbackSet: mosquitto_message_v5_callback_set_fn
    let new: mosquitto_new_fn
    let propertyAddByte: mosquitto_property_add_byte_fn
    let propertyAddInt32: mosquitto_property_add_int32_fn
    let propertyAddString: mosquitto_property_add_string_fn
    let propertyFreeAll: mosquitto_property_free_all_fn
    let publishV5: mosquitto_publish_v5_fn
    let publishV5CallbackSet: mosquitto_publish_v5_callback_set_fn
    let reasonString: mosquitto_reason_string_fn
    let strerror: mosquitto_strerror_fn
    let subscribeV5: mosquitto_subscribe_v5_fn
    let threadedSet: mosquitto_threaded_set_fn
    let tlsSet: mosquitto_tls_set_fn
    let userDataSet: mosquitto_user_data_set_fn
    let usernamePwSet: mosquitto_username_pw_set_fn
    let willSetV5: mosquitto_will_set_v5_fn

    /// Opens `soname` and resolves every function (tests pass a name that does not exist).
    /// - Throws: ``MQTTError/Code/libraryMissing`` saying which library or function is missing
    ///   and which Debian package provides it.
    init(soname: String) throws(MQTTError) {
        let library: DynamicLibrary
        do {
            library = try DynamicLibrary(soname: soname)
        } catch {
            throw MQTTError(.libraryMissing, Self.missing(error))
        }
        func resolve<F>(_ name: String) throws(MQTTError) -> F {
            do {
                return try library.function(name)
            } catch {
                throw MQTTError(.libraryMissing, "MQTT needs libmosquitto 1.6 or later (\(error.text): apt install libmosquitto1)")
            }
        }
        connackString = try resolve("mosquitto_connack_string")
        connectBindV5 = try resolve("mosquitto_connect_bind_v5")
        connectV5CallbackSet = try resolve("mosquitto_connect_v5_callback_set")
        destroy = try resolve("mosquitto_destroy")
        disconnect = try resolve("mosquitto_disconnect")
        intOption = try resolve("mosquitto_int_option")
        libInit = try resolve("mosquitto_lib_init")
        logCallbackSet = try resolve("mosquitto_log_callback_set")
        loop = try resolve("mosquitto_loop")
        maxInflightMessagesSet = try resolve("mosquitto_max_inflight_messages_set")
        messageV5CallbackSet = try resolve("mosquitto_message_v5_callback_set")
        new = try resolve("mosquitto_new")
        propertyAddByte = try resolve("mosquitto_property_add_byte")
        propertyAddInt32 = try resolve("mosquitto_property_add_int32")
        propertyAddString = try resolve("mosquitto_property_add_string")
        propertyFreeAll = try resolve("mosquitto_property_free_all")
        publishV5 = try resolve("mosquitto_publish_v5")
        publishV5CallbackSet = try resolve("mosquitto_publish_v5_callback_set")
        reasonString = try resolve("mosquitto_reason_string")
        strerror = try resolve("mosquitto_strerror")
        subscribeV5 = try resolve("mosquitto_subscribe_v5")
        threadedSet = try resolve("mosquitto_threaded_set")
        tlsSet = try resolve("mosquitto_tls_set")
        userDataSet = try resolve("mosquitto_user_data_set")
        usernamePwSet = try resolve("mosquitto_username_pw_set")
        willSetV5 = try resolve("mosquitto_will_set_v5")
    }

    /// `MQTT needs libmosquitto (libmosquitto.so.1 not found: apt install libmosquitto1)`, or
    /// with the loader's reason (`dlerror()`) when the file exists but cannot be loaded.
    static func missing(_ failure: DynamicLibrary.Failure) -> String {
        "MQTT needs libmosquitto (\(failure.text): apt install libmosquitto1)"
    }
}
