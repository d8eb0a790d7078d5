import Benchmark
import Logging
import Synchronization
import UCI
@_spi(Benchmarks) import UWBDevice

/// A transport that receives like ``UWBDevice/USBTransport``: every chunk of bytes goes through
/// the IN pump's own framing stage (``UWBDevice/USBInFraming``, as in the libusb completion
/// callback) and the packets are yielded to the stream under the same kind of lock. It answers
/// the bring-up and the session commands of one session with fixed UCI 1.1 bytes (the session
/// ID is the token) and lets the benchmark inject range data as IN transfers.
final class BenchTransport: UCITransport {
    let name = "bench"
    private struct State {
        var continuation: UCIPacketStream.Continuation?
        var framing: USBInFraming
    }
    private let state: Mutex<State>

    init(stripsFTDIStatus: Bool = false) {
        state = Mutex(State(framing: USBInFraming(stripsFTDIStatus: stripsFTDIStatus, maxPacketSize: 64)))
    }

    func open() async throws -> UCIPacketStream {
        let (stream, continuation) = UCIPacketStream.makeStream()
        state.withLock { $0.continuation = continuation }
        return stream
    }

    func send(_ packet: [UInt8]) async throws {
        let session = packet.count >= 8 ? Array(packet[4..<8]) : []
        let status = { (state: UInt8) -> [UInt8] in [0x61, 0x02, 0x00, 0x06] + session + [state, 0x00] }
        let replies: [[UInt8]]
        switch Array(packet.prefix(2)) {
        case [0x20, 0x00]: replies = [[0x40, 0x00, 0x00, 0x01, 0x00], [0x60, 0x01, 0x00, 0x01, 0x01]]
        case [0x20, 0x02]: replies = [[0x40, 0x02, 0x00, 0x0A, 0x00, 0x01, 0x10, 0x01, 0x30, 0x01, 0x30, 0x01, 0x10, 0x00]]
        case [0x20, 0x03]: replies = [[0x40, 0x03, 0x00, 0x02, 0x00, 0x00]]
        case [0x21, 0x00]: replies = [[0x41, 0x00, 0x00, 0x01, 0x00], status(0x00)]
        case [0x21, 0x03]: replies = [[0x41, 0x03, 0x00, 0x02, 0x00, 0x00], status(0x03)]
        case [0x22, 0x00]: replies = [[0x42, 0x00, 0x00, 0x01, 0x00], status(0x02)]
        case [0x22, 0x01]: replies = [[0x42, 0x01, 0x00, 0x01, 0x00], status(0x03)]
        case [0x21, 0x01]: replies = [[0x41, 0x01, 0x00, 0x01, 0x00], status(0x01)]
        default: replies = []
        }
        for reply in replies { reply.withUnsafeBytes { receive($0) } }
    }

    func close() async {
        state.withLock { $0.continuation }?.finish()
    }

    func waitUntilPresent(timeout: Duration) async throws {}

    /// One completed bulk IN transfer, as the libusb callback hands it to the pump.
    func receive(_ transfer: UnsafeRawBufferPointer) {
        state.withLock { state in
            let continuation = state.continuation
            state.framing.receive(transfer) { continuation?.yield($0) }
        }
    }
}

/// A client over a ``BenchTransport`` with session 1 ranging with `peers` peers (one-to-many
/// for more than one).
func rangingClient(peers count: Int) async throws -> (BenchTransport, UCIClient, UWBSession) {
    let transport = BenchTransport()
    let logger = Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() }
    let client = UCIClient(transport: transport, configuration: .init(sampleBufferSize: 8192), logger: logger)
    var parameters = FiRaSessionParameters(
        deviceMACAddress: .short(1), destinationMACAddresses: (0..<count).map { .short(UInt16(2 + $0)) })
    if count > 1 { parameters.multiNodeMode = .oneToMany }
    try await client.open()
    let session = try await client.openSession(id: 1, parameters: parameters)
    try await session.start()
    return (transport, client, session)
}

/// A SESSION_INFO_NTF packet for session 1 with `count` measurements.
func rangeDataPacket(measurements count: Int) -> [UInt8] {
    let list = (0..<count).map { index in
        UCITwoWayMeasurement(
            macAddress: .short(UInt16(2 + index)), distance: UInt16(150 + index), azimuth: UCIAngle(degrees: -30), azimuthFigureOfMerit: 100,
            elevation: UCIAngle(degrees: 10.5), elevationFigureOfMerit: 100, rssi: 0x90)
    }
    let info = UCISessionInfo(sequenceNumber: 1, session: 1, currentRangingInterval: 100, measurements: .twoWay(list))
    return (try? UCINotification.sessionInfo(info).packets().first?.bytes) ?? []
}

/// The bytes of one bulk IN transfer carrying `packet` from an FT230X: every 64-byte USB packet
/// starts with the 2 modem-status bytes.
func ftdiTransfer(_ packet: [UInt8]) -> [UInt8] {
    var transfer: [UInt8] = []
    var offset = 0
    while offset < packet.count {
        let end = min(offset + 62, packet.count)
        transfer += [0x01, 0x60] + packet[offset..<end]
        offset = end
    }
    return transfer
}

/// Every field of every sample, folded into one number (so nothing is optimised away).
@inline(__always)
func checksum(_ view: UCISessionInfoView, timestamp: Double) -> Double {
    var sum = 0.0
    view.forEachSample(timestamp: timestamp) { peerSample in
        let sample = peerSample.sample
        sum += sample.timestamp + (sample.distance ?? 0) + (sample.azimuth ?? 0) + (sample.elevation ?? 0) + (sample.rssi ?? 0)
        sum += Double(sample.figureOfMerit ?? 0) + Double(sample.status) + Double(peerSample.peer.value & 0xFF)
    }
    return sum
}

let benchmarks: @Sendable () -> Void = {
    let metrics: [BenchmarkMetric] = [.throughput, .wallClock, .mallocCountTotal]

    // The USB path of one range notification without the thread hops: the bytes of a completed
    // bulk IN transfer (as the libusb callback hands them to USBInPump) -> USBInFraming (FT230X:
    // status bytes removed) -> a typed UCIPacket -> UCIInbound.dispatch, the client's dispatch
    // on the header -> UCISessionInfoView over the payload -> one RangeSample per measurement.
    // Each packet is released before the next transfer, as the client does between transfers at
    // UWB rates, so the framer reuses its buffer: the target is 0 mallocs per notification.
    for (count, ftdi) in [(1, false), (4, false), (1, true)] {
        Benchmark(
            "USB IN transfer -> RangeSample (\(ftdi ? "FT230X" : "CDC-ACM")), \(count) measurement\(count == 1 ? "" : "s")",
            configuration: .init(metrics: metrics, scalingFactor: .kilo)
        ) { benchmark in
            let packet = rangeDataPacket(measurements: count)
            let transfer = ftdi ? ftdiTransfer(packet) : packet
            var framing = USBInFraming(stripsFTDIStatus: ftdi, maxPacketSize: 64)
            var reassembler = UCIReassembler()
            var delivered = 0
            transfer.withUnsafeBytes { bytes in
                benchmark.startMeasurement()
                for index in benchmark.scaledIterations {
                    framing.receive(bytes) { packet in
                        if case .rangeData(let view) = try? UCIInbound.dispatch(packet, reassembling: &reassembler) {
                            blackHole(checksum(view, timestamp: Double(index)))
                            delivered += 1
                        }
                    }
                }
                benchmark.stopMeasurement()
            }
            if delivered != benchmark.scaledIterations.count { benchmark.error("only \(delivered) notifications were range data") }
        }
    }

    // The client's whole receive path for range data: IN transfer bytes -> the pump's framing ->
    // the packet stream -> the reader on the client actor -> UCIInbound -> UCISessionInfoView ->
    // one UCIPeerRangeSample per measurement yielded to the session's stream -> the consumer.
    // Two modes:
    // - bursts: a batch of transfers is injected, then the samples are read (the client holds
    //   the packets of earlier transfers when the next one arrives, so the framer copies its
    //   buffer once per transfer);
    // - one at a time, as at UWB rates (a notification every few milliseconds at most): one
    //   transfer, then its samples are awaited; the reader has released the packet when the next
    //   transfer completes, so the framer reuses its buffer.
    for (count, bursts) in [(1, true), (4, true), (1, false), (4, false)] {
        let measurements = "\(count) measurement\(count == 1 ? "" : "s")"
        Benchmark(
            bursts
                ? "UCIClient: SESSION_INFO_NTF packet to session samples, \(measurements)"
                : "UCIClient: one IN transfer at a time to session samples, \(measurements)",
            configuration: .init(metrics: metrics, scalingFactor: .kilo)
        ) { benchmark in
            let transport: BenchTransport, client: UCIClient, session: UWBSession
            do {
                (transport, client, session) = try await rangingClient(peers: count)
            } catch {
                benchmark.error("setup failed: \(error)")
                return
            }
            let packet = rangeDataPacket(measurements: count)
            var samples = session.samples.makeAsyncIterator()
            benchmark.startMeasurement()
            if bursts {
                packet.withUnsafeBytes { bytes in
                    for _ in benchmark.scaledIterations { transport.receive(bytes) }
                }
                for _ in benchmark.scaledIterations {
                    for _ in 0..<count { blackHole(await samples.next()) }
                }
            } else {
                for _ in benchmark.scaledIterations {
                    packet.withUnsafeBytes { transport.receive($0) }
                    for _ in 0..<count { blackHole(await samples.next()) }
                }
            }
            benchmark.stopMeasurement()
            await client.close()
        }
    }

    // For comparison: what the session stream itself costs (AsyncStream yield + next, buffered),
    // without the client.
    Benchmark(
        "for comparison: AsyncStream<UCIPeerRangeSample> yield + next alone",
        configuration: .init(metrics: metrics, scalingFactor: .kilo)
    ) { benchmark in
        let (stream, continuation) = AsyncStream.makeStream(of: UCIPeerRangeSample.self, bufferingPolicy: .bufferingNewest(8192))
        var samples = stream.makeAsyncIterator()
        let sample = UCIPeerRangeSample(session: 1, peer: .short(2), sample: .init(timestamp: 1, distance: 1.5))
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { continuation.yield(sample) }
        for _ in benchmark.scaledIterations { blackHole(await samples.next()) }
        benchmark.stopMeasurement()
    }

    // For comparison: the packet stream alone (AsyncThrowingStream<UCIPacket> yield + next,
    // buffered): the hop from the libusb event thread to the client's reader.
    Benchmark(
        "for comparison: UCIPacketStream yield + next alone",
        configuration: .init(metrics: metrics, scalingFactor: .kilo)
    ) { benchmark in
        let (stream, continuation) = UCIPacketStream.makeStream()
        var packets = stream.makeAsyncIterator()
        guard let packet = try? UCIPacket(bytes: rangeDataPacket(measurements: 1)) else {
            benchmark.error("the benchmark packet is invalid")
            return
        }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { continuation.yield(packet) }
        for _ in benchmark.scaledIterations { blackHole(try? await packets.next()) }
        benchmark.stopMeasurement()
    }
}
