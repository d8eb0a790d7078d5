#if canImport(Glibc)
import Glibc
#endif
public import NearbySupport
import Synchronization

/// `--hci-log FILE`: every HCI packet between the host and the controller, in a btsnoop file
/// (datalink 1002, H4) as Android's snoop log and BlueZ's btmon write it, with its direction
/// and the wall-clock time; Wireshark dissects HCI, L2CAP, ATT and SMP in it. Key material is
/// zeroed first (``HCIKeyRedactor``).
///
/// The file is a `CaptureFile` (NearbySupport): mode 0600, rotated at its size limit (every
/// rotated file starts with the btsnoop header), a failed write is counted and reported once,
/// never thrown at the transport. Attach it with ``HCITransport/capturing(to:)`` or
/// ``BLEHost/open(_:configuration:security:capture:logger:)``.
public final class HCICaptureLog: Sendable {
    /// The file (statistics: records written and lost, rotations).
    public let file: CaptureFile
    private let redactor = Mutex(HCIKeyRedactor())

    /// Creates (or truncates) `path` and writes the btsnoop header.
    /// - Parameters:
    ///   - path: the capture file (mode 0600).
    ///   - limits: when to rotate it and how many rotated files to keep.
    ///   - onFailure: called once with the first write failure (a full disk ...).
    /// - Throws: `FileSystemError` (NearbySupport) when the file cannot be created.
    public init(
        path: String, limits: CaptureLimits = CaptureLimits(), onFailure: @escaping @Sendable (FileSystemError) -> Void = { _ in }
    ) throws(FileSystemError) {
        file = try CaptureFile(path: path, header: BTSnoop.fileHeader, limits: limits, onFailure: onFailure)
    }

    /// Records one packet (its keys zeroed).
    public func record(_ packet: HCIPacket, direction: CaptureDirection) {
        let sent = direction == .sent
        let redacted = redactor.withLock { $0.redact(packet, sent: sent) }
        file.write(BTSnoop.record(redacted, direction: sent ? .sent : .received, microseconds: Self.now()))
    }

    /// Closes the file (later packets are counted as lost).
    public func close() { file.close() }

    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return UInt64(time.tv_sec) * 1_000_000 + UInt64(time.tv_nsec / 1000)
    }
}
