public import LowEnergy
public import NearbySupport
public import UWBDevice

/// Packet captures on the terminal (`--uci-log`, `--hci-log`): opening one, or saying why it
/// cannot be; the first failed write; and at the end, how many packets are missing.
public enum CaptureReport {
    /// Opens a pcapng capture of every UCI packet at `path`, rotated at `maximumMiB` MiB
    /// (`UCICaptureLog`); `nil` for no `path`. Write failures are reported by ``failed(_:_:)``.
    /// - Parameters:
    ///   - path: the capture file; `nil` for none.
    ///   - interface: the interface name in the file (the dev kit's spec).
    ///   - maximumMiB: the size at which the file is rotated, MiB.
    ///   - flag: how messages name the capture.
    /// - Throws: ``TerminalExit/failure`` after saying `error: FLAG: ...` on standard error
    ///   when the file cannot be created.
    public static func uci(_ path: String?, interface: String, maximumMiB: Int, flag: String = "--uci-log") throws(TerminalExit) -> UCICaptureLog? {
        guard let path else { return nil }
        return try opening(flag) { () throws(FileSystemError) in
            try UCICaptureLog(
                path: path, interface: interface, limits: CaptureLimits(maximumBytes: maximumMiB << 20), onFailure: { failed(flag, $0) })
        }
    }

    /// Opens a btsnoop capture of every HCI packet at `path`, rotated at `maximumMiB` MiB
    /// (`HCICaptureLog`); `nil` for no `path`. Write failures are reported by ``failed(_:_:)``.
    /// - Parameters:
    ///   - path: the capture file; `nil` for none.
    ///   - maximumMiB: the size at which the file is rotated, MiB.
    ///   - flag: how messages name the capture.
    /// - Throws: ``TerminalExit/failure`` after saying `error: FLAG: ...` on standard error
    ///   when the file cannot be created.
    public static func hci(_ path: String?, maximumMiB: Int, flag: String = "--hci-log") throws(TerminalExit) -> HCICaptureLog? {
        guard let path else { return nil }
        return try opening(flag) { () throws(FileSystemError) in
            try HCICaptureLog(path: path, limits: CaptureLimits(maximumBytes: maximumMiB << 20), onFailure: { failed(flag, $0) })
        }
    }

    private static func opening<Log>(_ flag: String, _ open: () throws(FileSystemError) -> Log) throws(TerminalExit) -> Log {
        do {
            return try open()
        } catch {
            Console.error("error: \(flag): \(error)")
            throw .failure
        }
    }

    /// The first failed write: the run goes on without the missing packets.
    public static func failed(_ flag: String, _ error: FileSystemError) {
        Console.error(failure(flag, error))
    }

    /// `warning: FLAG: ERROR; packets are not recorded until writing works again (the run goes on)`.
    static func failure(_ flag: String, _ error: FileSystemError) -> String {
        "warning: \(flag): \(error); packets are not recorded until writing works again (the run goes on)"
    }

    /// At the end: closes `file` and says how many packets are missing from it, if any.
    public static func finish(_ flag: String, _ file: CaptureFile?) {
        guard let file else { return }
        file.close()
        if let line = loss(flag, file) { Console.error(line) }
    }

    /// `warning: FLAG: N packet(s) not recorded in PATH`, or `nil` when nothing was lost.
    static func loss(_ flag: String, _ file: CaptureFile) -> String? {
        let lost = file.statistics.recordsLost
        return lost > 0 ? "warning: \(flag): \(lost) packet(s) not recorded in \(file.path)" : nil
    }
}
