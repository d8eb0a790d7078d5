/// A value of `nearby accessory`'s flags that cannot be used: the message names the flag and
/// says what it accepts.
public struct AccessoryRoleFlagError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The flag, e.g. `--service`.
    public var flag: String
    /// What is wrong and what to give instead.
    public var description: String
}

extension AccessoryRoleFileSettings {
    /// The accessory role's settings given as text on a command line (`nearby accessory`'s
    /// flags), checked, as an overlay of the `[accessory]` section (``overridden(by:)``); `nil`
    /// = not given.
    /// - Parameters:
    ///   - name: the advertised name (`--name`).
    ///   - services: comma-separated service names (``serviceNames``), any case.
    ///   - mac: the UWB short address in hex (``address(_:)``).
    ///   - configVersion: `1.0` or `1.1`.
    ///   - role: `responder` or `initiator`.
    ///   - maxPhones: 1-8.
    ///   - advertisingIntervalMilliseconds: 20-10240 ms.
    /// - Throws: ``AccessoryRoleFlagError`` for the first value out of range, naming its flag
    ///   (`--service`, `--mac`, `--config-version`, `--role`, `--max-phones`, `--advertising-interval`).
    public init(
        flagsName name: String?, services: String?, mac: String?, configVersion: String?, role: String?, maxPhones: Int?,
        advertisingIntervalMilliseconds: Double?
    ) throws(AccessoryRoleFlagError) {
        self.init(name: name, configVersion: configVersion, role: role, maxPhones: maxPhones,
                  advertisingIntervalMilliseconds: advertisingIntervalMilliseconds)
        func fail(_ flag: String, _ message: String) -> AccessoryRoleFlagError {
            AccessoryRoleFlagError(flag: flag, description: "\(flag) \(message)")
        }
        if let services {
            let names = services.split(separator: ",").map { $0.trimmingWhitespace().lowercased() }
            guard !names.isEmpty, names.allSatisfy(Self.serviceNames.contains) else {
                throw fail("--service", "must list qnis, nus or apple, not \"\(services)\"")
            }
            self.services = names
        }
        if let mac {
            guard let address = Self.address(mac) else { throw fail("--mac", "must be 1-4 hex digits, 0001-FFFE, not \"\(mac)\"") }
            self.mac = address
        }
        if let configVersion, configVersion != "1.0", configVersion != "1.1" { throw fail("--config-version", "must be 1.0 or 1.1") }
        if let role, role != "responder", role != "initiator" { throw fail("--role", "must be responder or initiator") }
        if let maxPhones, !(1...8).contains(maxPhones) { throw fail("--max-phones", "must be 1-8, not \(maxPhones)") }
        if let advertisingIntervalMilliseconds, !(20...10_240).contains(advertisingIntervalMilliseconds) {
            throw fail("--advertising-interval", "must be 20-10240 ms, not \(advertisingIntervalMilliseconds)")
        }
    }
}

extension Substring {
    /// The text without leading and trailing whitespace.
    fileprivate func trimmingWhitespace() -> Substring {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return self[first...last]
    }
}
