import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The terminal's settings while the picker runs: non-canonical, no echo (signals stay on, so
/// Ctrl-C still interrupts). Restored by ``restore()`` and, whatever happens, at exit.
public enum TerminalMode {
    private static let saved = Mutex<termios?>(nil)

    /// Saves the settings (once) and switches to non-canonical mode without echo; hides the cursor.
    public static func enterNonCanonical() {
        var original = termios()
        guard tcgetattr(0, &original) == 0 else { return }
        let first = saved.withLock { saved -> Bool in
            defer { if saved == nil { saved = original } }
            return saved == nil
        }
        if first { atexit { TerminalMode.restore() } }
        var raw = original
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { characters in
            characters[Int(VMIN)] = 1
            characters[Int(VTIME)] = 0
        }
        tcsetattr(0, TCSANOW, &raw)
        Console.write("\u{1B}[?25l", to: STDERR_FILENO)  // hide the cursor
    }

    /// Restores the saved settings and shows the cursor (nothing if none are saved).
    public static func restore() {
        guard var original = saved.withLock({ saved -> termios? in
            defer { saved = nil }
            return saved
        }) else { return }
        tcsetattr(0, TCSANOW, &original)
        Console.write("\u{1B}[?25h", to: STDERR_FILENO)  // show the cursor
    }
}
