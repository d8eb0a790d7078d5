import Foundation
public import NearbySupport
import Synchronization

/// Unbuffered lines on standard output and standard error: a reader of a pipe (a test, a log,
/// another program) sees each line as soon as it is written.
///
/// Writes go straight to `write(2)`, never through `FileHandle.write` (which traps on an error).
/// When the reader of standard output goes away (`nearby range --json | head -3`: EPIPE, with
/// SIGPIPE ignored by `nearby`), the process is sent SIGTERM once, so a run stops the way Ctrl-C
/// stops it (sessions stopped on the kit, hooks ended, the summary on standard error), and
/// further output is dropped. A failed write to standard error is dropped.
public enum Console {
    private static let readerGone = Atomic<Bool>(false)

    /// Standard output as a `LineWriter`: what JSON lines gather in, written once
    /// per burst. Every write to standard output goes through it, so lines keep their order.
    public static let standardOutput = LineWriter(descriptor: STDOUT_FILENO, brokenPipe: { Console.readerWentAway() })

    /// The reader of standard output went away: the run stops as on Ctrl-C (once).
    static func readerWentAway() {
        if !readerGone.exchange(true, ordering: .relaxed) { kill(getpid(), SIGTERM) }
    }

    /// Writes `text` and a newline to standard output.
    public static func out(_ text: String) {
        write(text + "\n", to: STDOUT_FILENO)
    }

    /// Writes `text` and a newline to standard error.
    public static func error(_ text: String) {
        write(text + "\n", to: STDERR_FILENO)
    }

    /// `true` once a write to standard output found no reader (EPIPE).
    public static var standardOutputClosed: Bool { readerGone.load(ordering: .relaxed) }

    /// Writes all of `text` to `descriptor` (a short write continues, EINTR retries).
    /// - Parameters:
    ///   - text: the text, written as it is (add the newline).
    ///   - descriptor: `STDOUT_FILENO` or `STDERR_FILENO` (any open descriptor works; only
    ///     standard output's EPIPE stops the run).
    public static func write(_ text: String, to descriptor: Int32) {
        if descriptor == STDOUT_FILENO {
            standardOutput.append(text)
            standardOutput.flush()
            return
        }
        var text = text
        let failure = text.withUTF8 { writeAll(descriptor, UnsafeRawBufferPointer($0)) }
        if descriptor == STDOUT_FILENO, failure == EPIPE, !readerGone.exchange(true, ordering: .relaxed) {
            kill(getpid(), SIGTERM)
        }
    }
}
