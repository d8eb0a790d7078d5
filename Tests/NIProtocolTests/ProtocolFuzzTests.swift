import NIProtocol
import Testing
import NearbyTestSupport

/// Random bytes never crash the decoder, and whatever decodes re-encodes to the same bytes.
@Suite struct ProtocolFuzzTests {
    static let interestingIDs: [UInt8] = [0x01, 0x02, 0x03, 0x0A, 0x0B, 0x0C, 0x20, 0x21, 0x2F, 0xA5]

    @Test func randomBytesNeverCrashAndDecodedMessagesRoundTrip() async {
        var random = NITestRandom(seed: 0x5EED_0001)
        var decodedCount = 0
        var failures: [String] = []
        for iteration in 0..<12_000 {
            if iteration % 100 == 0 { await Task.yield() }  // leave the 2-core test pool to others
            let length = Int.random(in: 0...60, using: &random)
            var message = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            if !message.isEmpty && iteration % 2 == 0 {
                message[0] = Self.interestingIDs.randomElement(using: &random)!
            }
            for dialect in [nil, NIDialect.apple, .android] {
                do {
                    let decoded = try NIMessage(decoding: message, dialect: dialect)
                    decodedCount += 1
                    if decoded.encoded() != message {
                        failures.append("round trip of \(message) gave \(decoded.encoded())")
                    }
                } catch {
                    if error.description.isEmpty { failures.append("empty description for \(message)") }
                }
            }
        }
        #expect(decodedCount > 1000)
        #expect(failures.isEmpty, "\(failures.count) failures, first: \(failures.prefix(3))")
    }

    /// Random payloads of exactly the well-formed lengths, with the length bytes set, so that many
    /// of them parse: each one that parses must re-encode byte-exact (nothing is lost).
    @Test func wellFramedRandomPayloadsRoundTrip() async {
        var random = NITestRandom(seed: 0x5EED_0002)
        var parsed = [String: Int]()
        var failures: [String] = []
        for iteration in 0..<5_000 {
            if iteration % 100 == 0 { await Task.yield() }  // leave the 2-core test pool to others
            var candidates: [(String, [UInt8], NIDialect)] = []
            let uwbLength = [19, 21, 32].randomElement(using: &random)!
            var acd = (0..<(16 + uwbLength)).map { _ in UInt8.random(in: 0...255, using: &random) }
            acd[15] = UInt8(uwbLength)
            acd[16 + 16] = UInt8.random(in: 0...1, using: &random)
            candidates.append(("acd", [0x01] + acd, .apple))

            let shareableLength = [28, 30, 35].randomElement(using: &random)!
            var shareable = (0..<shareableLength).map { _ in UInt8.random(in: 0...255, using: &random) }
            shareable[4] = UInt8(shareableLength - 5)
            shareable[11] = UInt8.random(in: 9...12, using: &random)
            shareable[12] = [5, 9].randomElement(using: &random)!
            candidates.append(("shareable", [0x0B] + shareable, .apple))

            var device = (0..<18).map { _ in UInt8.random(in: 0...255, using: &random) }
            device[8] = 0
            device[15] = UInt8.random(in: 1...3, using: &random)
            candidates.append(("device", [0x01] + device, .android))

            var phone = (0..<14).map { _ in UInt8.random(in: 0...255, using: &random) }
            phone[8] = UInt8.random(in: 9...12, using: &random)
            phone[9] = 9
            phone[10] = UInt8.random(in: 1...31, using: &random)
            phone[11] = UInt8.random(in: 1...2, using: &random)
            candidates.append(("phone", [0x0B] + phone, .android))

            for (name, message, dialect) in candidates {
                do {
                    let decoded = try NIMessage(decoding: message, dialect: dialect)
                    parsed[name, default: 0] += 1
                    if decoded.encoded() != message {
                        failures.append("\(name) round trip of \(message) gave \(decoded.encoded())")
                    }
                    if (try? NIMessage(decoding: message)) != decoded {
                        failures.append("\(name) automatic dialect differs for \(message)")
                    }
                } catch {
                    // Only zero slot counts / durations / intervals may still be rejected.
                    if name != "shareable"
                        || error.field.map({ !["slotsPerRound", "slotDurationRSTU", "rangingIntervalMS"].contains($0) })
                            ?? true
                    {
                        failures.append("\(name): \(error)")
                    }
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) failures, first: \(failures.prefix(3))")
        #expect(parsed["acd"] == 5_000)
        #expect(parsed["device"] == 5_000)
        #expect(parsed["phone"] == 5_000)
        #expect((parsed["shareable"] ?? 0) > 4_750)
    }
}
