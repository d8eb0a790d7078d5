import NearbyBase
import NearbySupport
import Ranging
public import UCI

/// What `nearby uwb range` prints: range samples (lines or JSON objects) on standard output;
/// notes on standard output in text mode and on standard error in JSON mode; events on standard
/// error.
///
/// Samples are formatted straight into ``Console/standardOutput``'s buffer on the transport's
/// reader (where they were decoded) and written once per range notification (``flush()``): a
/// pipe sees every sample at once, and the process makes one `write(2)` per notification.
public struct UWBRangeOutput: Sendable {
    /// One JSON object per sample (keys `t_s`, `peer`, `distance_m`, `azimuth_deg`,
    /// `elevation_deg`, `fom`, `nlos`, `status`) instead of lines.
    public let json: Bool

    /// An output in text or JSON mode.
    public init(json: Bool) {
        self.json = json
    }

    /// Gathers one sample's line; `start` is time zero (`MonotonicTime` seconds).
    /// Written by ``flush()``.
    public func sample(_ peerSample: UCIPeerRangeSample, start: Double) {
        Console.standardOutput.withBuffer { buffer in
            append(peerSample, start: start, to: &buffer)
            buffer.append(UInt8(ascii: "\n"))
        }
    }

    /// Writes the gathered lines (after each range notification).
    public func flush() {
        Console.standardOutput.flush()
    }

    /// The line (or JSON object) for one sample:
    /// `   1.234 s  0x0002    1.50 m  azimuth   10.0°  elevation   0.0°  FoM 100  LoS`.
    public func line(_ peerSample: UCIPeerRangeSample, start: Double) -> String {
        var bytes: [UInt8] = []
        append(peerSample, start: start, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the line (or JSON object) for one sample to `out`, without the newline. Numbers
    /// are written as `printf` writes them (`%8.3f`, ...), JSON values as Swift prints them.
    public func append(_ peerSample: UCIPeerRangeSample, start: Double, to out: inout [UInt8]) {
        let sample = peerSample.sample
        let time = max(0, sample.timestamp - start)
        let status = UCIStatus(rawValue: sample.status)
        if json {
            JSONBytes.append(#"{"t_s":"#, to: &out)
            PrintfText.append(time, decimals: 3, to: &out)
            JSONBytes.append(#","peer":""#, to: &out)
            Self.appendPeer(peerSample.peer, to: &out)
            JSONBytes.append(#"","distance_m":"#, to: &out)
            Self.appendNumber(sample.distance, to: &out)
            JSONBytes.append(#","azimuth_deg":"#, to: &out)
            Self.appendNumber(sample.azimuth, to: &out)
            JSONBytes.append(#","elevation_deg":"#, to: &out)
            Self.appendNumber(sample.elevation, to: &out)
            JSONBytes.append(#","fom":"#, to: &out)
            JSONBytes.appendInteger(sample.figureOfMerit.map(Int64.init), to: &out)
            JSONBytes.append(#","nlos":"#, to: &out)
            JSONBytes.appendBool(sample.isNonLineOfSight, to: &out)
            JSONBytes.append(#","status":""#, to: &out)
            Self.appendStatus(status, raw: sample.status, to: &out)
            JSONBytes.append(#""}"#, to: &out)
            return
        }
        PrintfText.append(time, decimals: 3, width: 8, to: &out)
        JSONBytes.append(" s  ", to: &out)
        Self.appendPeer(peerSample.peer, to: &out)
        guard sample.isValid, let distance = sample.distance else {
            JSONBytes.append("  no measurement: ", to: &out)
            Self.appendText(status.description, to: &out)
            return
        }
        JSONBytes.append("  ", to: &out)
        PrintfText.append(distance, decimals: 2, width: 6, to: &out)
        JSONBytes.append(" m", to: &out)
        if let azimuth = sample.azimuth {
            JSONBytes.append("  azimuth ", to: &out)
            PrintfText.append(azimuth, decimals: 1, width: 6, to: &out)
            JSONBytes.append("°", to: &out)
        }
        if let elevation = sample.elevation {
            JSONBytes.append("  elevation ", to: &out)
            PrintfText.append(elevation, decimals: 1, width: 5, to: &out)
            JSONBytes.append("°", to: &out)
        }
        if let fom = sample.figureOfMerit {
            JSONBytes.append("  FoM ", to: &out)
            JSONBytes.appendInteger(Int64(fom), to: &out)
        }
        if let nlos = sample.isNonLineOfSight { JSONBytes.append(nlos ? "  NLoS" : "  LoS", to: &out) }
    }

    /// A note for people: standard output in text mode, standard error in JSON mode.
    public func note(_ text: String) {
        if json { Console.error(text) } else { Console.out(text) }
    }

    /// An event (session or dev-kit news): standard error.
    @Sendable public func event(_ text: String) {
        Console.error(text)
    }

    /// A JSON value as Swift prints it (`1.5`, `-3.0`), `null` for none and non-finite values.
    private static func appendNumber(_ value: Double?, to out: inout [UInt8]) {
        guard let value, value.isFinite else {
            JSONBytes.append("null", to: &out)
            return
        }
        JSONBytes.appendShortest(value, to: &out)
    }

    /// The status name (`OK`), or `0x21` for a status UCI does not name.
    private static func appendStatus(_ status: UCIStatus, raw: UInt8, to out: inout [UInt8]) {
        if let name = status.name {
            appendText(name, to: &out)
        } else {
            appendText(Hex.prefixed(raw, digits: 2), to: &out)
        }
    }

    /// The peer as `UCIMACAddress` describes it (`0x0002`), without making a string.
    private static func appendPeer(_ peer: UCIMACAddress, to out: inout [UInt8]) {
        let (value, digits): (UInt64, Int) = switch peer {
        case .short(let value): (UInt64(value), 4)
        case .extended(let value): (value, 16)
        }
        JSONBytes.append("0x", to: &out)
        let hex: StaticString = "0123456789ABCDEF"
        hex.withUTF8Buffer { table in
            for index in stride(from: digits - 1, through: 0, by: -1) {
                out.append(table[Int((value >> (UInt64(index) * 4)) & 0xF)])
            }
        }
    }

    private static func appendText(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { out.append(contentsOf: $0) }
    }
}
