#if canImport(Glibc)
import Glibc
#endif
public import NearbySupport

/// `--uci-log FILE`: every UCI packet between the host and the UWB subsystem, in a pcapng file
/// of link type FiRa UCI (299), one Enhanced Packet Block per packet (header + payload, one
/// segment each), with its direction (outbound: host -> UWBS; inbound: UWBS -> host) and the
/// wall-clock time. Wireshark 4.2+ dissects it; ``PcapNGReader`` reads it back.
///
/// The file is a `CaptureFile`: mode 0600, rotated at its size limit (every
/// rotated file starts with its own headers), a failed write is counted and reported once,
/// never thrown at the transport. Attach it with ``UCITransport/capturing(to:)``.
public final class UCICaptureLog: Sendable {
    /// The file (statistics: records written and lost, rotations).
    public let file: CaptureFile

    /// Creates (or truncates) `path` and writes the pcapng headers.
    /// - Parameters:
    ///   - path: the capture file (mode 0600).
    ///   - interface: the interface name in the file (the transport's, e.g. `usb:1915:520f`).
    ///   - limits: when to rotate it and how many rotated files to keep.
    ///   - onFailure: called once with the first write failure (a full disk ...).
    /// - Throws: `FileSystemError` when the file cannot be created.
    public init(
        path: String, interface: String = "uci", limits: CaptureLimits = CaptureLimits(),
        onFailure: @escaping @Sendable (FileSystemError) -> Void = { _ in }
    ) throws(FileSystemError) {
        file = try CaptureFile(
            path: path, header: PcapNG.fileHeader(linkType: PcapNG.linkTypeFiRaUCI, interface: interface), limits: limits,
            onFailure: onFailure)
    }

    /// Records one packet.
    public func record(_ packet: some Collection<UInt8>, direction: CaptureDirection) {
        file.write(PcapNG.packetBlock(packet, microseconds: Self.now(), direction: direction == .sent ? .outbound : .inbound))
    }

    /// Closes the file (later packets are counted as lost).
    public func close() { file.close() }

    /// Wall-clock microseconds since the Unix epoch.
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return UInt64(time.tv_sec) * 1_000_000 + UInt64(time.tv_nsec / 1000)
    }
}
