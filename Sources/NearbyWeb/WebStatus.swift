public import NearbyBase
public import NearbyRuntime

/// One accessory's status as the web view sends it: the run's `AccessoryStatus`
/// plus the raw direction of the last usable sample (for the page's raw / smoothed toggle).
/// Encoded only when sent, so coalesced statuses cost nothing.
public struct WebStatus: Sendable {
    /// The status after the event.
    public var status: AccessoryStatus
    /// Measured azimuth of the last usable sample, degrees, `nil` if it had none.
    public var rawAzimuth: Double?
    /// Measured elevation of the last usable sample, degrees, `nil` if it had none.
    public var rawElevation: Double?
    /// The run's clocks.
    public var context: RunContext

    /// Creates a status.
    public init(status: AccessoryStatus, rawAzimuth: Double?, rawElevation: Double?, context: RunContext) {
        self.status = status
        self.rawAzimuth = rawAzimuth
        self.rawElevation = rawElevation
        self.context = context
    }

    /// The `status` object: `RunJSON.object(for:context:)` (NearbyRuntime) plus
    /// `raw_azimuth_deg` and `raw_elevation_deg`.
    public var json: JSONObject {
        var object = RunJSON.object(for: status, context: context)
        object.merge([("raw_azimuth_deg", .number(rawAzimuth, decimals: 2)), ("raw_elevation_deg", .number(rawElevation, decimals: 2))])
        return object
    }
}
