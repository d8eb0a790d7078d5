import Benchmark
import Ranging
import UCI

/// A SESSION_INFO_NTF payload with `count` two-way measurements (short addresses).
func sessionInfoPayload(measurements count: Int) -> [UInt8] {
    var list: [UCITwoWayMeasurement] = []
    for index in 0..<count {
        let address = UCIMACAddress.short(UInt16(0x0201 + index))
        let distance = UInt16(150 + 10 * index)
        list.append(
            UCITwoWayMeasurement(
                macAddress: address, status: .ok, nlos: 0, distance: distance,
                azimuth: UCIAngle(degrees: -30), azimuthFigureOfMerit: 100,
                elevation: UCIAngle(degrees: 10.5), elevationFigureOfMerit: 100,
                slotIndex: UInt8(index), rssi: 0x90))
    }
    let info = UCISessionInfo(sequenceNumber: 7, session: 0x0102_0304, currentRangingInterval: 200, measurements: .twoWay(list))
    // The encoder only fails for more than 255 measurements or mixed address sizes.
    return (try? info.encodePayload()) ?? []
}

/// Every field of every sample, folded into one number.
@inline(__always)
func checksum(_ view: UCISessionInfoView, timestamp: Double) -> Double {
    var sum = 0.0
    view.forEachSample(timestamp: timestamp) { peerSample in
        let sample = peerSample.sample
        sum += sample.timestamp + (sample.distance ?? 0) + (sample.azimuth ?? 0) + (sample.elevation ?? 0) + (sample.rssi ?? 0)
        sum += Double(sample.figureOfMerit ?? 0) + (sample.isNonLineOfSight == true ? 1 : 0) + Double(sample.status)
        sum += Double(peerSample.peer.value & 0xFF) + Double(peerSample.session & 0xFF)
    }
    return sum
}

let benchmarks: @Sendable () -> Void = {
    let metrics: [BenchmarkMetric] = [.throughput, .wallClock, .mallocCountTotal]

    // The hot path of the UCI client: notification payload -> view -> RangeSample per peer. The
    // samples are folded into a checksum that is black-holed once per notification, so the figure
    // is the decode, not the cost of an opaque generic call per sample.
    for count in [1, 8] {
        Benchmark(
            "SESSION_INFO_NTF decode, \(count) measurement\(count == 1 ? "" : "s"), to RangeSample",
            configuration: .init(metrics: metrics, scalingFactor: .kilo)
        ) { benchmark in
            let payload = sessionInfoPayload(measurements: count)
            precondition((try? UCISessionInfoView(payload: payload))?.measurementCount == count, "the benchmark payload is invalid")
            benchmark.startMeasurement()
            for index in benchmark.scaledIterations {
                if let view = try? UCISessionInfoView(payload: payload) {
                    blackHole(checksum(view, timestamp: Double(index)))
                }
            }
        }
    }

    // The same from a typed packet as UCIPacketFramer returns it (header decoded by the framer).
    Benchmark(
        "SESSION_INFO_NTF decode from a packet, 1 measurement, to RangeSample",
        configuration: .init(metrics: metrics, scalingFactor: .kilo)
    ) { benchmark in
        let payload = sessionInfoPayload(measurements: 1)
        guard let packet = try? UCIPacket(bytes: [0x62, 0x00, 0x00, UInt8(payload.count)] + payload),
            (try? UCISessionInfoView(packet: packet))?.measurementCount == 1
        else {
            benchmark.error("the benchmark packet is invalid")
            return
        }
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            if let view = try? UCISessionInfoView(packet: packet) {
                blackHole(checksum(view, timestamp: Double(index)))
            }
        }
    }

    // The receive path of the codec from wire bytes: the framer cuts the packet (one header
    // decode), UCIInbound dispatches it on its header, the view reads it in place, the samples
    // are folded. 0 mallocs: the framer reuses its buffer once the packet was released.
    for count in [1, 4] {
        Benchmark(
            "SESSION_INFO_NTF bytes -> framer -> dispatch -> view -> RangeSample, \(count) measurement\(count == 1 ? "" : "s")",
            configuration: .init(metrics: metrics, scalingFactor: .kilo)
        ) { benchmark in
            let payload = sessionInfoPayload(measurements: count)
            let header = UCIPacketHeader(messageType: .notification, opcode: .sessionInfo, payloadLength: payload.count)
            guard let bytes = try? UCIPacket(header: header, payload: payload).bytes else {
                benchmark.error("the benchmark packet is invalid")
                return
            }
            var framer = UCIPacketFramer()
            var reassembler = UCIReassembler()
            benchmark.startMeasurement()
            for index in benchmark.scaledIterations {
                framer.append(bytes)
                while let packet = framer.nextPacket() {
                    if case .rangeData(let view) = try? UCIInbound.dispatch(packet, reassembling: &reassembler) {
                        blackHole(checksum(view, timestamp: Double(index)))
                    }
                }
            }
        }
    }

    // For comparison: the allocating, fully typed decode (not the hot path).
    Benchmark(
        "SESSION_INFO_NTF decode to UCINotification (typed copy), 8 measurements",
        configuration: .init(metrics: metrics, scalingFactor: .kilo)
    ) { benchmark in
        let payload = sessionInfoPayload(measurements: 8)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try? UCINotification(opcode: .sessionInfo, payload: payload))
        }
    }

    // The framer alone: a 60-byte notification in, a typed packet out (its payload a slice of
    // the framer's buffer, reused in place once the packet is released).
    Benchmark("UCIPacketFramer: frame a 60-byte notification", configuration: .init(metrics: metrics, scalingFactor: .kilo)) { benchmark in
        var framer = UCIPacketFramer()
        let packet: [UInt8] = [0x62, 0x00, 0x00, 0x38] + [UInt8](repeating: 0, count: 56)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            framer.append(packet)
            blackHole(framer.nextPacket())
        }
    }
}
