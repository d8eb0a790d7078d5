/// How big a packet capture (`--uci-log`, `--hci-log`) may grow: the file is rotated at
/// ``maximumBytes`` and ``keptFiles`` older files are kept (``CaptureFile``).
public struct CaptureLimits: Sendable, Hashable {
    /// Size at which the file is rotated, bytes.
    public var maximumBytes: Int
    /// Rotated files kept (`FILE.1` ... `FILE.N`).
    public var keptFiles: Int

    /// Creates limits; the defaults (64 MiB, 3 old files) hold about a day of 8 accessories at
    /// 10 Hz in each file.
    public init(maximumBytes: Int = 64 << 20, keptFiles: Int = 3) {
        self.maximumBytes = maximumBytes
        self.keptFiles = keptFiles
    }
}

/// Which way a captured packet went.
public enum CaptureDirection: Sendable, Hashable {
    /// From the host to the device (a command, data sent).
    case sent
    /// From the device to the host (a response, a notification, an event, data received).
    case received
}
