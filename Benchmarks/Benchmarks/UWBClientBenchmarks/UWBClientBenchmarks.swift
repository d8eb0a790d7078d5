import Benchmark
import Logging
import Synchronization
import UCI
import UWBDevice

/// A transport that answers the bring-up and the session commands of one session with fixed
/// UCI 1.1 bytes (the session ID is the token) and lets the benchmark inject range data.
final class BenchTransport: UCITransport {
    let name = "bench"
    private let continuation = Mutex<AsyncThrowingStream<[UInt8], any Error>.Continuation?>(nil)

    func open() async throws -> AsyncThrowingStream<[UInt8], any Error> {
        let (stream, continuation) = AsyncThrowingStream<[UInt8], any Error>.makeStream()
        self.continuation.withLock { $0 = continuation }
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
        let continuation = self.continuation.withLock { $0 }
        for reply in replies { continuation?.yield(reply) }
    }

    func close() async {
        continuation.withLock { $0 }?.finish()
    }

    func waitUntilPresent(timeout: Duration) async throws {}

    /// Delivers a packet as if the UWBS sent it.
    func inject(_ packet: [UInt8]) {
        continuation.withLock { $0 }?.yield(packet)
    }
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

let benchmarks: @Sendable () -> Void = {
    let metrics: [BenchmarkMetric] = [.throughput, .wallClock, .mallocCountTotal]

    // The client's whole receive path for range data: a packet from the transport's stream ->
    // the reader on the client actor -> UCISessionInfoView -> one UCIPeerRangeSample per
    // measurement yielded to the session's stream -> the consumer. A batch of packets is
    // injected, then the samples are read, as a dev kit delivers them in bursts.
    for count in [1, 4] {
        Benchmark(
            "UCIClient: SESSION_INFO_NTF packet to session samples, \(count) measurement\(count == 1 ? "" : "s")",
            configuration: .init(metrics: metrics, scalingFactor: .kilo)
        ) { benchmark in
            let transport = BenchTransport()
            let logger = Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() }
            let client = UCIClient(transport: transport, configuration: .init(sampleBufferSize: 8192), logger: logger)
            var parameters = FiRaSessionParameters(
                deviceMACAddress: .short(1), destinationMACAddresses: (0..<count).map { .short(UInt16(2 + $0)) })
            if count > 1 { parameters.multiNodeMode = .oneToMany }
            let session: UWBSession
            do {
                try await client.open()
                session = try await client.openSession(id: 1, parameters: parameters)
                try await session.start()
            } catch {
                benchmark.error("setup failed: \(error)")
                return
            }
            let packet = rangeDataPacket(measurements: count)
            var samples = session.samples.makeAsyncIterator()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                transport.inject(packet)
            }
            for _ in benchmark.scaledIterations {
                for _ in 0..<count { blackHole(await samples.next()) }
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
}
