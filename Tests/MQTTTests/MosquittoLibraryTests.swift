@testable import MQTT
import NearbySupport
import Testing

/// libmosquitto is opened with dlopen at first use (MosquittoLibrary): a missing library is a
/// typed error saying which package to install, not a loader failure at start.
@Suite struct MosquittoLibraryTests {
    @Test func aMissingLibraryIsATypedErrorNamingThePackage() {
        #expect {
            _ = try MosquittoLibrary(soname: "libnearby-no-such-mosquitto.so.1")
        } throws: { error in
            let error = error as? MQTTError
            return error?.code == .libraryMissing && error?.needsUserAction == true
                && error?.description == "MQTT needs libmosquitto (libnearby-no-such-mosquitto.so.1 not found: apt install libmosquitto1)"
        }
    }

    @Test func aLibraryWithoutTheFunctionsNamesTheFirstOneMissing() {
        // libc loads but has no mosquitto_* function.
        #expect {
            _ = try MosquittoLibrary(soname: "libc.so.6")
        } throws: { error in
            let error = error as? MQTTError
            return error?.code == .libraryMissing
                && error?.description == "MQTT needs libmosquitto 1.6 or later (libc.so.6 has no mosquitto_connack_string: apt install libmosquitto1)"
        }
    }

    @Test func theLoadersReasonIsKeptWhenTheFileIsThereButCannotLoad() {
        #expect(
            MosquittoLibrary.missing(.opening("libmosquitto.so.1", reason: "/usr/lib/x86_64-linux-gnu/libmosquitto.so.1: wrong ELF class: ELFCLASS32"))
                == "MQTT needs libmosquitto (libmosquitto.so.1 cannot be loaded: /usr/lib/x86_64-linux-gnu/libmosquitto.so.1: wrong ELF class: ELFCLASS32: apt install libmosquitto1)")
        #expect(
            MosquittoLibrary.missing(.opening("libmosquitto.so.1", reason: "libmosquitto.so.1: cannot open shared object file: No such file or directory"))
                == "MQTT needs libmosquitto (libmosquitto.so.1 not found: apt install libmosquitto1)")
    }

    @Test func theInstalledLibraryResolvesEveryFunction() throws {
        let library = try MosquittoLibrary.load()
        // A real call through a resolved pointer: libmosquitto's own text for MOSQ_ERR_NO_CONN.
        #expect(library.strerror(4).map { String(cString: $0) } == "The client is not currently connected.")
    }
}
