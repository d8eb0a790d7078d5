import ArgumentParser
import LowEnergy

/// The pairing-policy flags of the commands that may pair (`nearby setup`, `nearby range`):
/// `--allow-debug-keys` (specs/ble-security.md §3, docs/pairing.md).
struct PairingPolicyOptions: ParsableArguments {
    @Flag(name: .customLong("allow-debug-keys"), help: "Accept an accessory that pairs with the Bluetooth debug public key (SMP debug mode): anyone who recorded the pairing can decrypt the link, so the bond counts as unauthenticated. Refused by default. Not with --hci bluez (the kernel pairs there).")
    var allowDebugKeys = false

    /// Through BlueZ the kernel's Security Manager pairs, not this program's: the flag would do
    /// nothing there, so it is an error (specs/ble-security.md §3).
    static let debugKeysWithBlueZ = "--allow-debug-keys is for this program's own Security Manager (--hci hci:N, tcp:HOST:PORT, serial:PATH); "
        + "through BlueZ the kernel pairs, and keeps no key of a debug-key pairing unless debug keys are enabled on the adapter (`sudo btmgmt debug-keys on`)"

    /// `configuration` with these flags applied.
    func apply(to configuration: SecurityConfiguration) -> SecurityConfiguration {
        var configuration = configuration
        configuration.allowsDebugKeys = allowDebugKeys
        return configuration
    }
}
