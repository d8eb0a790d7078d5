#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What happened to an accessory, as a hook sees it. Built from a `RangingEvent` with
/// ``events(for:accessoryName:accessoryID:distance:timestamp:)``; its ``environment`` is
/// everything a hook command receives.
public struct HookEvent: Sendable, Hashable, CustomStringConvertible {
    /// The event kind (`NEARBY_EVENT`).
    public var kind: HookTrigger
    /// The zone the event is about (`NEARBY_ZONE`): the zone entered (`enter`) or left (`exit`);
    /// `nil` for `lost` and `found`.
    public var zone: String?
    /// The zone the accessory was in before the event (`NEARBY_PREVIOUS_ZONE`): for `enter` the
    /// zone just left (`nil` for the first zone after `found`), for `exit` the zone left (same
    /// as ``zone``), for `lost` the zone it was in when it went silent, for `found` `nil`.
    public var previousZone: String?
    /// The accessory's display name (`NEARBY_ACCESSORY`); any text, passed verbatim.
    public var accessoryName: String
    /// The accessory's stable identifier (`NEARBY_ACCESSORY_ID`), e.g. its BLE address or store id.
    public var accessoryID: String
    /// Smoothed distance in metres when the event happened (`NEARBY_DISTANCE_M`), `nil` if unknown.
    public var distance: Double?
    /// When the event happened: seconds since the Unix epoch, UTC (`NEARBY_TIMESTAMP`).
    public var timestamp: Double

    /// Creates an event.
    public init(
        kind: HookTrigger, zone: String?, previousZone: String?, accessoryName: String, accessoryID: String,
        distance: Double?, timestamp: Double
    ) {
        self.kind = kind
        self.zone = zone
        self.previousZone = previousZone
        self.accessoryName = accessoryName
        self.accessoryID = accessoryID
        self.distance = distance
        self.timestamp = timestamp
    }

    /// The names of the environment variables a hook receives, in a fixed order.
    public static let environmentNames = [
        "NEARBY_EVENT", "NEARBY_ZONE", "NEARBY_PREVIOUS_ZONE", "NEARBY_ACCESSORY", "NEARBY_ACCESSORY_ID",
        "NEARBY_DISTANCE_M", "NEARBY_TIMESTAMP",
    ]

    /// The variables set for a hook command (on top of the inherited environment); every name of
    /// ``environmentNames`` is always set, unknown values as empty strings:
    ///
    /// | variable | value |
    /// |---|---|
    /// | `NEARBY_EVENT` | `enter`, `exit`, `lost` or `found` |
    /// | `NEARBY_ZONE` | ``zone`` or empty |
    /// | `NEARBY_PREVIOUS_ZONE` | ``previousZone`` or empty |
    /// | `NEARBY_ACCESSORY` | ``accessoryName``, verbatim |
    /// | `NEARBY_ACCESSORY_ID` | ``accessoryID``, verbatim |
    /// | `NEARBY_DISTANCE_M` | metres with 3 decimals (`1.234`), empty if unknown |
    /// | `NEARBY_TIMESTAMP` | ISO 8601 UTC with milliseconds (`2025-01-31T12:34:56.789Z`) |
    public var environment: [(name: String, value: String)] {
        [
            ("NEARBY_EVENT", kind.rawValue),
            ("NEARBY_ZONE", zone ?? ""),
            ("NEARBY_PREVIOUS_ZONE", previousZone ?? ""),
            ("NEARBY_ACCESSORY", accessoryName),
            ("NEARBY_ACCESSORY_ID", accessoryID),
            ("NEARBY_DISTANCE_M", distance.map { Self.formatDistance($0) } ?? ""),
            ("NEARBY_TIMESTAMP", Self.formatTimestamp(timestamp)),
        ]
    }

    /// `enter near (accessory "tag", 1.234 m)`.
    public var description: String {
        var text = kind.rawValue
        if let zone { text += " " + zone }
        text += " (accessory \"\(accessoryName)\""
        if let distance { text += ", \(Self.formatDistance(distance)) m" }
        return text + ")"
    }

    /// Metres with exactly 3 decimals, rounded half away from zero (`1.234`, `0.000`); empty for
    /// non-finite values.
    public static func formatDistance(_ metres: Double) -> String { fixed3(metres) }

    /// `x` with exactly 3 decimals, rounded half away from zero; empty for non-finite values.
    static func fixed3(_ x: Double) -> String {
        guard x.isFinite else { return "" }
        let thousandths = (abs(x) * 1000).rounded()
        guard thousandths < 9e15 else { return "" }
        let units = Int64(thousandths)
        let sign = x < 0 && units != 0 ? "-" : ""
        let fraction = String(units % 1000)
        return sign + String(units / 1000) + "." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// Seconds since the Unix epoch as ISO 8601 UTC with milliseconds: `2025-01-31T12:34:56.789Z`.
    public static func formatTimestamp(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "" }
        let milliseconds = Int64((seconds * 1000).rounded(.down))
        var whole = time_t(milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000)
        let fraction = Int(milliseconds - Int64(whole) * 1000)
        var parts = tm()
        guard gmtime_r(&whole, &parts) != nil else { return "" }
        func pad(_ value: Int32, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(Int32(fraction), 3))Z"
    }

    /// The current time as seconds since the Unix epoch (`CLOCK_REALTIME`).
    public static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
