import ArgumentParser
import NearbyTerminal
import UCI

/// `nearby uci decode HEX...`: decodes UCI packets for debugging.
///
/// Each argument holds one or more whole packets in hex; segmented messages given in order are
/// reassembled across arguments. A bad argument or packet is reported on stderr and the rest are
/// still decoded; the exit code is then 1.
struct UCIDecodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode UCI packets given in hex.",
        discussion: """
            Each argument is one packet, or several packets back to back, in hex: spaces, colons, \
            commas, '|', '-' and '0x' prefixes are allowed. Segments of a segmented message, given in \
            order, are reassembled. Without arguments, packets are read from standard input, one \
            argument per line.

            Examples:
              nearby uci decode "20 00 00 01 00"
              nearby uci decode --json 61020006010000000300
              nearby uci decode 41:00:00:05:00:01:00:00:00 "60 01 00 01 01 | 40 00 00 01 00"

            Errors (bad hex, truncated packets, malformed payloads) go to standard error; the other \
            packets are still decoded and the exit code is 1.
            """
    )

    @Argument(help: "UCI packets in hex, one or more per argument. Read from standard input if none.")
    var packets: [String] = []

    @Flag(name: .long, help: "Print one JSON object per message instead of readable text.")
    var json = false

    @Option(
        name: .customLong("uci-version"),
        help: "The UCI version of the device (1.1 or 2.0); it matters only for layouts the bytes cannot tell apart.")
    var uciVersion = "2.0"

    func validate() throws {
        guard UCIVersion(name: uciVersion) != nil else {
            throw ValidationError("--uci-version must be 1.1 or 2.0, not \"\(uciVersion)\"")
        }
    }

    func run() async throws {
        var decoder = UCITextDecoder(version: UCIVersion(name: uciVersion) ?? .v2_0, json: json)
        for input in UCITextDecoder.inputs(arguments: packets) { UCITextDecoder.show(decoder.decode(input.text, label: input.label)) }
        UCITextDecoder.show(decoder.finish())
        if decoder.failures > 0 { throw ExitCode(1) }
    }
}
