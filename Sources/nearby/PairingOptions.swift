import Accessories
import ArgumentParser
import Dispatch
import Foundation
import LowEnergy

/// `nearby setup`'s pairing flags: `--pair`, `--passkey`, `--confirm`, `--repair`.
struct PairingOptions: ParsableArguments {
    @Flag(name: .long, help: "Pair with the accessory and store the keys with it (AccessorySetupKit's bluetoothPairingLE).")
    var pair = false

    @Option(name: .long, help: ArgumentHelp("The six-digit passkey the accessory shows, for scripts (else asked on the terminal).", valueName: "N"))
    var passkey: UInt32?

    @Flag(name: .long, help: "Accept the numeric comparison without asking (check the accessory shows the printed number).")
    var confirm = false

    @Option(name: .long, help: ArgumentHelp("Pair a stored accessory again (it forgot the bond, or was reset): its old keys are removed first.", valueName: "name"))
    var repair: String?

    /// `true` if pairing was asked for (`--pair` or `--repair`).
    var pairs: Bool { pair || repair != nil }

    func validate() throws {
        if let passkey, passkey > 999_999 { throw ValidationError("--passkey must be six digits (0-999999), got \(passkey)") }
        if (passkey != nil || confirm) && !pairs { throw ValidationError("--passkey and --confirm are for --pair or --repair") }
    }

    /// The delegate: `--passkey` / `--confirm` answers, else the terminal, else nothing (Just Works).
    var delegate: TerminalPairingDelegate {
        TerminalPairingDelegate(passkey: passkey, confirms: confirm, interactive: TerminalPairingDelegate.terminalAvailable)
    }

    /// The pairing policy: keyboard and display when someone (or a flag) can answer, else
    /// Just Works only.
    var configuration: SecurityConfiguration {
        let canAnswer = passkey != nil || confirm || TerminalPairingDelegate.terminalAvailable
        return SecurityConfiguration(ioCapability: canAnswer ? .keyboardDisplay : .noInputNoOutput)
    }
}

/// Pairing prompts on the terminal (standard error and standard input), or the answers of
/// `--passkey` / `--confirm` for scripts. Without a terminal and without those flags a passkey
/// or comparison request fails with a message naming the flag to use.
struct TerminalPairingDelegate: PairingDelegate {
    /// The passkey to type when the accessory shows one.
    var passkey: UInt32?
    /// Accept numeric comparisons without asking.
    var confirms: Bool
    /// Prompts may be shown and answered.
    var interactive: Bool

    /// `true` if standard input and standard error are terminals.
    static var terminalAvailable: Bool { isatty(0) == 1 && isatty(2) == 1 }

    static func sixDigits(_ value: UInt32) -> String { String(format: "%06u", value) }

    func displayPasskey(_ passkey: UInt32, peer: BluetoothAddress) async {
        UWBConsole.error("pairing with \(peer): type the passkey \(Self.sixDigits(passkey)) on the accessory")
    }

    func requestPasskey(peer: BluetoothAddress) async -> UInt32? {
        if let passkey {
            UWBConsole.error("pairing with \(peer): entering the passkey given with --passkey")
            return passkey
        }
        guard interactive else {
            UWBConsole.error("pairing with \(peer): the accessory shows a passkey; run again with --passkey N")
            return nil
        }
        guard let line = await Self.prompt("pairing with \(peer): the passkey the accessory shows: "),
              let value = UInt32(line.trimmingCharacters(in: .whitespaces)), value <= 999_999 else {
            UWBConsole.error("no six-digit passkey entered; pairing cancelled")
            return nil
        }
        return value
    }

    func confirmNumber(_ number: UInt32, peer: BluetoothAddress) async -> Bool {
        if confirms {
            UWBConsole.error("pairing with \(peer): numeric comparison \(Self.sixDigits(number)) accepted (--confirm)")
            return true
        }
        guard interactive else {
            UWBConsole.error("pairing with \(peer): does the accessory show \(Self.sixDigits(number))? Run again with --confirm to accept")
            return false
        }
        let answer = await Self.prompt("pairing with \(peer): does the accessory show \(Self.sixDigits(number))? [y/N] ")
        return ["y", "yes"].contains(answer?.trimmingCharacters(in: .whitespaces).lowercased() ?? "")
    }

    /// Shows `text` on standard error and reads one line from standard input, off Swift's
    /// cooperative threads (reading blocks).
    static func prompt(_ text: String) async -> String? {
        FileHandle.standardError.write(Data(text.utf8))
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: readLine(strippingNewline: true)) }
        }
    }
}
