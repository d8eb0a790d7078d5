import NearbyBase
import NearbySupport
public import UCI
import Synchronization

/// Sends whole UCI packets over a transport as they are and reports every packet both ways:
/// after each command (MT 1) the response (MT 2) is awaited before the next packet goes out;
/// notifications are reported as they arrive. What `nearby uwb raw` runs; no client, no reset,
/// nothing interpreted beyond the header.
public enum UCIRawExchange {
    /// Opens `transport`, sends `packets` in order, keeps reporting for `listen` after the last
    /// one, and closes the transport.
    /// - Parameters:
    ///   - packets: the packets to send, in order.
    ///   - transport: the dev kit's transport (not yet open).
    ///   - device: how the device was named (`tcp:127.0.0.1:7000`), in the timeout error.
    ///   - responseTimeout: how long to wait for each response.
    ///   - listen: how long to keep reporting notifications after the last packet.
    ///   - report: each packet as a line (`UCIPacket.line`) with its direction,
    ///     `> ...` sent, `< ...` received.
    ///   - error: what went wrong, in words (no `error:` prefix): the transport could not open,
    ///     a response did not come, the link failed.
    /// - Returns: `true` if every command got its response and the link stayed up.
    public static func run(
        _ packets: [UCIPacket], over transport: any UCITransport, device: String, responseTimeout: Duration, listen: Duration,
        packet report: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void
    ) async -> Bool {
        let stream: UCIPacketStream
        do {
            stream = try await transport.open()
        } catch let failure {
            error("\(failure)")
            return false
        }
        let waiting = Mutex<Promise<Void>?>(nil)
        let reader = Task {
            do {
                for try await packet in stream {
                    report("< " + packet.line)
                    if packet.header.messageType == .response { _ = waiting.withLock { $0 }?.fulfill(()) }
                }
            } catch let failure {
                error("\(failure)")
                _ = waiting.withLock { $0 }?.fail(failure)
                throw failure
            }
        }
        var failed = false
        for (index, packet) in packets.enumerated() {
            let reply = Promise<Void>()
            let expectsResponse = packet.header.messageType == .command
            waiting.withLock { $0 = expectsResponse ? reply : nil }
            report("> " + packet.line)
            do {
                try await transport.send(packet.bytes)
                if expectsResponse {
                    try await reply.value(
                        timeout: responseTimeout,
                        operation: "the response to packet \(index + 1) (\(Hex.bytes(packet.bytes.prefix(UCIPacketHeader.size))))")
                }
            } catch let failure as TimeoutError {
                error("\(device): \(failure)")
                failed = true
                break
            } catch let failure as UWBDeviceError {
                error("\(failure)")
                failed = true
                break
            } catch {
                // The stream ended (unplug, server gone): the reader reported why.
                failed = true
                break
            }
        }
        if !failed && listen > .zero {
            try? await Task.sleep(for: listen)
        }
        await transport.close()
        if (try? await reader.value) == nil { failed = true }
        return !failed
    }
}
