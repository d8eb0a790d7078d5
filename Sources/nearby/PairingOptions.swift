import ArgumentParser
import NearbyTerminal

/// `nearby setup`'s pairing flags: `--pair`, `--passkey`, `--confirm`, `--repair`, `--allow-debug-keys`.
struct PairingOptions: ParsableArguments {
    @Flag(name: .long, help: "Pair with the accessory and store the keys with it (AccessorySetupKit's bluetoothPairingLE).")
    var pair = false

    @Option(name: .long, help: ArgumentHelp("The six-digit passkey the accessory shows, for scripts (else asked on the terminal).", valueName: "N"))
    var passkey: UInt32?

    @Flag(name: .long, help: "Accept the numeric comparison without asking (check the accessory shows the printed number).")
    var confirm = false

    @Option(name: .long, help: ArgumentHelp("Pair a stored accessory again (it forgot the bond, or was reset): its keys are replaced once the new pairing succeeds, whatever its strength or identity key.", valueName: "name"))
    var repair: String?

    @OptionGroup var policy: PairingPolicyOptions

    /// `true` if pairing was asked for (`--pair` or `--repair`).
    var pairs: Bool { pair || repair != nil }

    func validate() throws {
        if let passkey, passkey > 999_999 { throw ValidationError("--passkey must be six digits (0-999999), got \(passkey)") }
        if (passkey != nil || confirm) && !pairs { throw ValidationError("--passkey and --confirm are for --pair or --repair") }
    }

    /// The delegate: `--passkey` / `--confirm` answers, else the terminal, else nothing (Just Works);
    /// its ``TerminalPairingDelegate/securityConfiguration`` is the pairing policy.
    var delegate: TerminalPairingDelegate { TerminalPairingDelegate(passkey: passkey, confirms: confirm) }
}
