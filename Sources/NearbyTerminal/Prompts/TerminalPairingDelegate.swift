import Dispatch
import Foundation
public import LowEnergy

/// Pairing prompts on the terminal (standard error and standard input), or answers given in
/// advance for scripts (`nearby setup --passkey` / `--confirm`). Without a terminal and without
/// those answers a passkey or comparison request fails with a message naming the flag to use.
public struct TerminalPairingDelegate: PairingDelegate {
    /// The passkey to type when the accessory shows one.
    public var passkey: UInt32?
    /// Accept numeric comparisons without asking.
    public var confirms: Bool
    /// Prompts may be shown and answered.
    public var interactive: Bool

    /// Answers `passkey` / `confirms` when given, else asks when `interactive`.
    public init(passkey: UInt32? = nil, confirms: Bool = false, interactive: Bool = TerminalPairingDelegate.terminalAvailable) {
        self.passkey = passkey
        self.confirms = confirms
        self.interactive = interactive
    }

    /// `true` if standard input and standard error are terminals.
    public static var terminalAvailable: Bool { isatty(0) == 1 && isatty(2) == 1 }

    /// The pairing policy for these answers: keyboard and display when someone (or an answer
    /// given in advance) can answer, else Just Works only.
    public var securityConfiguration: SecurityConfiguration {
        SecurityConfiguration(ioCapability: passkey != nil || confirms || interactive ? .keyboardDisplay : .noInputNoOutput)
    }

    /// `000042`.
    static func sixDigits(_ value: UInt32) -> String { String(format: "%06u", value) }

    /// Says which passkey to type on the accessory.
    public func displayPasskey(_ passkey: UInt32, peer: BluetoothAddress) async {
        Console.error("pairing with \(peer): type the passkey \(Self.sixDigits(passkey)) on the accessory")
    }

    /// The passkey given in advance, else the one typed on the terminal; `nil` cancels pairing.
    public func requestPasskey(peer: BluetoothAddress) async -> UInt32? {
        if let passkey {
            Console.error("pairing with \(peer): entering the passkey given with --passkey")
            return passkey
        }
        guard interactive else {
            Console.error("pairing with \(peer): the accessory shows a passkey; run again with --passkey N")
            return nil
        }
        guard let line = await Self.prompt("pairing with \(peer): the passkey the accessory shows: "),
              let value = UInt32(line.trimmingCharacters(in: .whitespaces)), value <= 999_999 else {
            Console.error("no six-digit passkey entered; pairing cancelled")
            return nil
        }
        return value
    }

    /// Accepts when confirmed in advance, else asks y/N on the terminal.
    public func confirmNumber(_ number: UInt32, peer: BluetoothAddress) async -> Bool {
        if confirms {
            Console.error("pairing with \(peer): numeric comparison \(Self.sixDigits(number)) accepted (--confirm)")
            return true
        }
        guard interactive else {
            Console.error("pairing with \(peer): does the accessory show \(Self.sixDigits(number))? Run again with --confirm to accept")
            return false
        }
        let answer = await Self.prompt("pairing with \(peer): does the accessory show \(Self.sixDigits(number))? [y/N] ")
        return ["y", "yes"].contains(answer?.trimmingCharacters(in: .whitespaces).lowercased() ?? "")
    }

    /// Shows `text` on standard error and reads one line from standard input, off Swift's
    /// cooperative threads (reading blocks).
    public static func prompt(_ text: String) async -> String? {
        Console.write(text, to: STDERR_FILENO)
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: readLine(strippingNewline: true)) }
        }
    }
}
