import NearbyBase

/// How long the host took from the accessory's configuration data (0x01) arriving to its
/// configureAndStart (0x0B) leaving: the latency budget of the NI exchange (a late answer makes
/// the accessory's session time out). Measured with `ContinuousClock` by ``AccessorySession``.
///
/// `total = ownWork + uwbConfiguration + send`: the dev kit's SESSION_INIT and
/// SESSION_SET_APP_CONFIG round trips and the data channel's write (over GATT a write with
/// response waits for the accessory's acknowledgement) are the kit's and the link's time, not
/// ours, so the budget (``budget``, 5 ms) applies to ``ownWork``: decoding, validation, planning,
/// encoding, and the hops between tasks.
public struct SessionLatency: Sendable, Hashable, CustomStringConvertible {
    /// The budget for ``ownWork``: 5 ms.
    public static let budget: Duration = .milliseconds(5)

    /// From the configuration data's arrival (as the data channel delivered it) to the send of
    /// configureAndStart returning.
    public var total: Duration
    /// Of which: waiting for the local dev kit (opening and configuring the UWB session).
    public var uwbConfiguration: Duration
    /// Of which: the data channel's send of configureAndStart (handing it over, and for a GATT
    /// write with response, the accessory's acknowledgement).
    public var send: Duration
    /// Before it: from initialize (0x0A) being sent to the configuration data (0x01) arriving:
    /// the link's round trip and the accessory's answer (`.zero` when not measured).
    public var initialize: Duration

    /// Creates a measurement.
    public init(total: Duration, uwbConfiguration: Duration, send: Duration = .zero, initialize: Duration = .zero) {
        self.total = total
        self.uwbConfiguration = uwbConfiguration
        self.send = send
        self.initialize = initialize
    }

    /// The whole configuration exchange, 0x0A sent → 0x01 arrived → 0x0B sent: ``initialize`` +
    /// ``total``.
    public var exchange: Duration { initialize + total }

    /// Milliseconds of ``exchange``.
    public var exchangeMilliseconds: Double { exchange.inSeconds * 1000 }

    /// `total - uwbConfiguration - send`: the host's own work.
    public var ownWork: Duration { total - uwbConfiguration - send }

    /// `true` if ``ownWork`` is within ``budget``.
    public var isWithinBudget: Bool { ownWork <= Self.budget }

    /// Milliseconds of ``ownWork`` (for JSON and tables).
    public var ownWorkMilliseconds: Double { ownWork.inSeconds * 1000 }
    /// Milliseconds of ``total``.
    public var totalMilliseconds: Double { total.inSeconds * 1000 }

    /// `0.41 ms own work (budget 5 ms) + 1.20 ms dev kit + 0.05 ms send = 1.66 ms`.
    public var description: String {
        "\(Self.ms(ownWorkMilliseconds)) own work (budget 5 ms) + \(Self.ms(uwbConfiguration.inSeconds * 1000)) dev kit"
            + " + \(Self.ms(send.inSeconds * 1000)) send = \(Self.ms(totalMilliseconds))"
    }

    static func ms(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) ms"
    }
}
