import FuzzSupport
import FuzzUCICommon
import UCI

/// A SESSION_INFO_NTF payload (the range-data hot path): `UCISessionInfoView` (read in place),
/// `UCISessionInfo(payload:)` (the full decoder) and `UCINotification` with UCI 1.1 and 2.0.
///
/// Input: the payload (the bytes after the 4-byte packet header).
/// Invariants: whatever the view accepts, the full decoder accepts with the same values; samples
/// convert without trapping; the decoded value re-encodes to the same payload.
@main enum FuzzUCISessionInfo: FuzzTarget {
    static var seeds: [[UInt8]] {
        UCISeeds.packets.filter { $0.count > 4 && $0[0] == 0x62 && $0[1] == 0x00 }.map { Array($0.dropFirst(4)) }
    }

    static func fuzz(_ input: [UInt8]) {
        let decoded = try? UCISessionInfo(payload: input[...])
        if let view = try? UCISessionInfoView(payload: input) {
            UCIChecks.checkView(view)
            FuzzCheck.require(decoded == UCISessionInfo(view), "the view and the full decoder disagree")
        }
        if let decoded {
            _ = decoded.peerSamples(timestamp: 0)
            if let encoded = try? decoded.encodePayload() {
                FuzzCheck.require((try? UCISessionInfo(payload: encoded[...])) == decoded, "re-encoded payload decodes differently")
            }
        }
        for version in [UCIVersion.v1_1, .v2_0] {
            _ = try? UCINotification(opcode: .sessionInfo, payload: input, version: version)
        }
    }
}
