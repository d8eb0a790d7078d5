/// FTDI FT230X details the USB transport needs: SIO vendor requests, the baud divisor encoding
/// and the 2 modem-status bytes that start every IN packet.
public enum FTDI {
    /// SIO vendor requests (bmRequestType 0x40, host to device).
    public enum Request: UInt8, Sendable {
        /// Reset the SIO (wValue 0), purge RX (1) or TX (2).
        case reset = 0x00
        /// Set DTR/RTS: wValue high byte = mask, low byte = levels (0x0303 = both on).
        case modemControl = 0x01
        /// Flow control: wIndex high byte = mode (0 none, 1 RTS/CTS), low byte = port.
        case flowControl = 0x02
        /// Baud rate: divisor in wValue and wIndex, see ``FTDI/baudDivisor(for:)``.
        case setBaudRate = 0x03
        /// Data characteristics: wValue = bits | parity << 8 | stop bits << 11 (0x0008 = 8N1).
        case setData = 0x04
        /// Latency timer in milliseconds (wValue 1-255).
        case setLatencyTimer = 0x09
    }

    /// wValue for `reset`: reset the SIO.
    public static let resetSIO: UInt16 = 0
    /// wValue for `reset`: purge the RX buffer.
    public static let purgeRX: UInt16 = 1
    /// wValue for `reset`: purge the TX buffer.
    public static let purgeTX: UInt16 = 2
    /// wValue for `setData`: 8 data bits, no parity, 1 stop bit.
    public static let data8N1: UInt16 = 0x0008
    /// wValue for `modemControl`: DTR and RTS on.
    public static let dtrAndRTSOn: UInt16 = 0x0303
    /// Number of modem-status bytes at the start of every IN packet.
    public static let statusByteCount = 2

    /// The FT230X's baud-rate generator runs at 3 MHz (48 MHz / 16).
    static let baseClock = 3_000_000

    /// The `(wValue, wIndex)` pair of `SET_BAUD_RATE` for `baud` on an FT230X (and FT232R-class
    /// chips): the divisor 3 MHz / baud in eighths, integer part in bits 0-13, the fraction
    /// encoded in bits 14-16 (bit 16 goes to wIndex); 3,000,000 baud is the special divisor 0,
    /// 2,000,000 baud the special divisor 1.
    /// - Returns: `nil` if `baud` is outside 184-3,000,000 or the nearest divisor is more than
    ///   3 % off (the UART would not work).
    public static func baudDivisor(for baud: Int) -> (value: UInt16, index: UInt16, actualBaud: Int)? {
        guard baud >= 184, baud <= baseClock else { return nil }
        // Divisor in eighths, rounded to nearest.
        var eighths = (baseClock * 8 + baud / 2) / baud
        if eighths < 8 { eighths = 8 }
        let encoded: Int
        let actual: Int
        if eighths == 8 {
            encoded = 0
            actual = baseClock
        } else if eighths <= 12 {
            // Divisors between 1 and 1.5 do not exist; 1.5 is encoded as 1.
            eighths = 12
            encoded = 1
            actual = 2_000_000
        } else {
            let fractionCode: [Int] = [0, 3, 2, 4, 1, 5, 6, 7]  // eighths 0..7 -> code
            encoded = (eighths >> 3) | fractionCode[eighths & 7] << 14
            actual = (baseClock * 8 + eighths / 2) / eighths
        }
        guard abs(actual - baud) * 100 <= baud * 3 else { return nil }
        return (UInt16(encoded & 0xFFFF), UInt16(encoded >> 16), actual)
    }

    /// Removes the 2 modem-status bytes at the start of every `maxPacketSize` chunk of one IN
    /// transfer and appends the data bytes to `output`.
    /// - Parameters:
    ///   - transfer: the bytes of one completed IN transfer (packets of `maxPacketSize`, the
    ///     last one possibly short).
    ///   - maxPacketSize: the endpoint's max packet size (64 at full speed).
    ///   - output: where the data bytes are appended.
    public static func appendPayload(of transfer: UnsafeRawBufferPointer, maxPacketSize: Int, to output: inout [UInt8]) {
        var offset = 0
        while offset < transfer.count {
            let end = min(offset + maxPacketSize, transfer.count)
            if end - offset > statusByteCount {
                output.append(contentsOf: UnsafeRawBufferPointer(rebasing: transfer[(offset + statusByteCount)..<end]))
            }
            offset = end
        }
    }

    /// Convenience over ``appendPayload(of:maxPacketSize:to:)`` for an array.
    public static func payload(of transfer: [UInt8], maxPacketSize: Int = 64) -> [UInt8] {
        var output: [UInt8] = []
        transfer.withUnsafeBytes { appendPayload(of: $0, maxPacketSize: maxPacketSize, to: &output) }
        return output
    }
}
