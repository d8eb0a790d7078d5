import LowEnergy
import Testing

/// Inputs the fuzzer (Fuzz/, FuzzSMP) found; each is also in Fuzz/Regressions/FuzzSMP.
@Suite struct SMPFuzzRegressionTests {
    /// A Pairing Response whose OOB data flag is a reserved value (0x44) decoded to "not present"
    /// and re-encoded as 0x00: the confirm (c1) and DHKey check (f6) values are computed over the
    /// PDU as received, so they would not match the peer's. The flag byte is kept now.
    @Test func aReservedOOBFlagIsKeptAsReceived() throws {
        let bytes: [UInt8] = [0x02, 0x44, 0x44, 0x44, 0x44, 0x44, 0x44]
        let pdu = try SMPPDU(decoding: bytes)
        #expect(pdu.bytes == bytes)
        guard case .pairingResponse(let features) = pdu else {
            Issue.record("decoded as \(pdu)")
            return
        }
        #expect(features.oobDataFlag == 0x44 && !features.oobDataPresent, "only 0x01 means present")
        var present = features
        present.oobDataPresent = true
        #expect(present.oobDataFlag == 0x01)
    }
}
