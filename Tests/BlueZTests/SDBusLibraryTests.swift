@testable import BlueZ
import Glibc
import LowEnergy
import NearbySupport
import Testing

/// libsystemd (sd-bus) is opened with dlopen when the first D-Bus connection opens
/// (SDBusLibrary): a missing library is a typed error saying which package to install.
@Suite struct SDBusLibraryTests {
    @Test func aMissingLibraryIsATypedErrorNamingThePackage() {
        #expect {
            _ = try SDBusLibrary(soname: "libnearby-no-such-systemd.so.0")
        } throws: { error in
            let error = error as? DBusError
            return error?.name == DBusError.libraryMissing
                && error?.message == "BlueZ needs libsystemd (libnearby-no-such-systemd.so.0 not found: apt install libsystemd0)"
        }
    }

    @Test func aLibraryWithoutTheFunctionsNamesTheFirstOneMissing() {
        #expect {
            _ = try SDBusLibrary(soname: "libc.so.6")
        } throws: { error in
            (error as? DBusError)?.message
                == "BlueZ needs libsystemd 222 or later (libc.so.6 has no sd_bus_add_fallback: apt install libsystemd0)"
        }
    }

    @Test func theBackendsErrorSaysWhatToDo() {
        let error = BlueZError.libraryMissing(detail: SDBusLibrary.missing(.opening("libsystemd.so.0", reason: nil)))
        #expect(
            error.description
                == "BlueZ needs libsystemd (libsystemd.so.0 not found: apt install libsystemd0); or use this program's own host: --hci hci:N, tcp:HOST:PORT or serial:PATH")
    }

    @Test func theInstalledLibraryResolvesEveryFunction() throws {
        let library = try SDBusLibrary.load()
        // A real call through a resolved pointer: sd-bus refuses a null message with -EINVAL.
        #expect(library.messageIsMethodError(nil, nil) == -EINVAL)
    }
}
