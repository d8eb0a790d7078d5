public import LowEnergy
public import NearbyBase

/// The JSON keys of a security failure or refusal, the same in `nearby range --json` (an object
/// with `"event":"security"`) and `nearby setup --json`: `type` (`refused`: this host's pairing
/// policy said no; `failed`: pairing or encryption failed), `code` (a stable name:
/// `SecurityError.code`, e.g. `identity_conflict`, `debug_key`, `repeated_attempts`,
/// `key_missing`), `message` (what happened and what to do), `action` (refusals: what to do),
/// `smp_reason` (refusals: the Pairing Failed reason sent to the peer), `retry_after_s`
/// (Repeated Attempts: seconds until the peer may pair again).
public enum SecurityJSON {
    /// The fields for `error`, in the order above.
    public static func fields(for error: SecurityError) -> [(String, JSONObject.Value)] {
        guard let refusal = error.refusal else {
            return [("type", .string("failed")), ("code", .string(error.code)), ("message", .string(error.description))]
        }
        var fields: [(String, JSONObject.Value)] = [
            ("type", .string("refused")), ("code", .string(error.code)), ("message", .string(refusal.description)),
            ("action", .string(refusal.action)), ("smp_reason", .string(refusal.sent.description)),
        ]
        if let retryAfter = refusal.retryAfter { fields.append(("retry_after_s", .number(retryAfter.inSeconds, decimals: 3))) }
        return fields
    }

    /// `{"event":"security","address":"F0:...","type":...}`: one line for `nearby setup --json`.
    public static func line(_ error: SecurityError, address: BluetoothAddress) -> String {
        var object = JSONObject([("event", .string("security")), ("address", .string(address.description))])
        object.merge(fields(for: error))
        return object.text
    }
}
