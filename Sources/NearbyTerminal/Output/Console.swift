import Foundation

/// Unbuffered lines on standard output and standard error: a reader of a pipe (a test, a log,
/// another program) sees each line as soon as it is written.
public enum Console {
    /// Writes `text` and a newline to standard output.
    public static func out(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// Writes `text` and a newline to standard error.
    public static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
