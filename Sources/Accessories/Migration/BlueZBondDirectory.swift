public import LowEnergy
import NearbySupport
#if canImport(Glibc)
import Glibc
#endif

/// Reads BlueZ's bond directory: `<root>/<adapter address>/<device address>/info`, INI files
/// written by bluetoothd (`[General] Name=`, `AddressType=public|static`,
/// `SupportedTechnologies=BR/EDR;LE;`, and key sections such as `[LongTermKey]`).
///
/// The root is a parameter so tests (and other layouts) can use any directory. BlueZ keeps
/// `/var/lib/bluetooth` mode 0700 root: without root this fails with
/// ``MigrationError/permissionDenied(path:)``.
public struct BlueZBondDirectory: Sendable {
    /// BlueZ's default location.
    public static let defaultRoot = "/var/lib/bluetooth"

    /// The directory holding one directory per adapter.
    public var root: String

    /// A reader for `root`.
    public init(root: String = BlueZBondDirectory.defaultRoot) {
        self.root = root
    }

    /// Every device of every adapter, sorted by adapter then address; a device known to two
    /// adapters is listed once (the first adapter's entry, with `bonded` if any adapter has keys).
    /// - Throws: ``MigrationError/noBondDirectory(root:)``, ``MigrationError/permissionDenied(path:)``,
    ///   ``MigrationError/readFailed(_:)``.
    public func devices() throws(MigrationError) -> [KnownDevice] {
        var result: [KnownDevice] = []
        guard let adapters = try entries(of: root, missing: .noBondDirectory(root: root)) else { return [] }
        for adapterName in adapters.sorted() {
            guard let adapter = BluetoothAddress(adapterName) else { continue }
            let adapterPath = root + "/" + adapterName
            guard let devices = try entries(of: adapterPath, missing: nil) else { continue }
            for deviceName in devices.sorted() {
                guard let address = BluetoothAddress(deviceName) else { continue }
                let infoPath = adapterPath + "/" + deviceName + "/info"
                let bytes: [UInt8]?
                do {
                    bytes = try AtomicFile.read(infoPath)
                } catch {
                    if error.errno == EACCES || error.errno == EPERM { throw .permissionDenied(path: infoPath) }
                    if error.errno == ENOTDIR { continue }
                    throw .readFailed(error)
                }
                guard let bytes else { continue }
                let device = Self.parseInfo(String(decoding: bytes, as: UTF8.self), adapter: adapter, address: address)
                if let index = result.firstIndex(where: { $0.address == address }) {
                    if device.bonding == .bonded { result[index].bonding = .bonded }
                } else {
                    result.append(device)
                }
            }
        }
        return result
    }

    /// The device with `address`.
    /// - Throws: ``MigrationError/notKnown(address:root:known:)`` if no adapter knows it, or the
    ///   errors of ``devices()``.
    public func device(_ address: BluetoothAddress) throws(MigrationError) -> KnownDevice {
        let all = try devices()
        guard let device = all.first(where: { $0.address == address }) else {
            throw .notKnown(address: address, root: root, known: all.filter(\.supportsLE).map(\.description))
        }
        return device
    }

    /// Parses one `info` file. Unknown keys and sections are ignored; never fails. Keys
    /// (`[LongTermKey]`, `[PeripheralLongTermKey]`, `[IdentityResolvingKey]`) become a `Bond` (LowEnergy)
    /// whose identity is the device's directory address.
    public static func parseInfo(_ text: String, adapter: BluetoothAddress, address: BluetoothAddress) -> KnownDevice {
        var section = ""
        var values: [String: [String: String]] = [:]
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = String(rawLine).trimmedWhitespace
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") && line.hasSuffix("]") {
                section = String(line.dropFirst().dropLast())
                values[section, default: [:]] = values[section] ?? [:]
                continue
            }
            guard let equals = line.firstIndex(of: "=") else { continue }
            values[section, default: [:]][String(line[..<equals]).trimmedWhitespace] =
                String(line[line.index(after: equals)...]).trimmedWhitespace
        }
        let general = values["General"] ?? [:]
        let typeText = general["AddressType"]?.lowercased()
        let addressType: BluetoothAddressType = (typeText == "static" || typeText == "random") ? .random : .public
        let technologies = (general["SupportedTechnologies"] ?? "").split(separator: ";").map { String($0).trimmedWhitespace }
        let supportsLE = technologies.contains("LE") || (typeText != nil && technologies.isEmpty)
        let keySections: Set<String> = ["LongTermKey", "PeripheralLongTermKey", "SlaveLongTermKey"]
        let name = general["Name"].flatMap { $0.isEmpty ? nil : $0 }
        let bond = Self.bond(values, identity: IdentityAddress(address: address, type: addressType))
        return KnownDevice(adapter: adapter, address: address, addressType: addressType, name: name,
                           supportsLE: supportsLE, bonding: Set(values.keys).isDisjoint(with: keySections) ? .none : .bonded,
                           bond: bond)
    }

    /// The bond in an info file's key sections. BlueZ writes keys as hex in wire order (least
    /// significant byte first); `Authenticated` is the mgmt key type (0/1 legacy, 2/3/4
    /// Secure Connections; odd or 3: authenticated). `[LongTermKey]` is the key for encrypting
    /// as the central, `[PeripheralLongTermKey]` (formerly `[SlaveLongTermKey]`) the one given
    /// when the device is the central.
    static func bond(_ values: [String: [String: String]], identity: IdentityAddress) -> Bond? {
        func key(_ section: [String: String]?) -> SecurityKey? {
            guard let text = section?["Key"], text.count == 32, let reversed = SecurityKey(hex: text) else { return nil }
            return SecurityKey(reversed.bytes.reversed())
        }
        func longTermKey(_ name: String) -> (LongTermKey, authenticated: Int, size: Int)? {
            guard let section = values[name], let value = key(section) else { return nil }
            let ediv = section["EDiv"].flatMap { UInt16($0) } ?? 0
            let rand = section["Rand"].flatMap { UInt64($0) } ?? 0
            let authenticated = section["Authenticated"].flatMap { Int($0) } ?? 0
            let size = section["EncSize"].flatMap { Int($0) } ?? 16
            return (LongTermKey(key: value, ediv: ediv, rand: rand), authenticated, size)
        }
        let central = longTermKey("LongTermKey")
        let peripheral = longTermKey("PeripheralLongTermKey") ?? longTermKey("SlaveLongTermKey")
        let irk = key(values["IdentityResolvingKey"])
        guard let main = central ?? peripheral else { return nil }
        let secureConnections = main.authenticated >= 2
        return Bond(
            peerIdentity: identity, peerLongTermKey: central?.0,
            localLongTermKey: secureConnections ? (central ?? peripheral)?.0 : peripheral?.0,
            peerIRK: irk, keySize: min(16, max(7, main.size)),
            authenticated: main.authenticated == 1 || main.authenticated == 3, secureConnections: secureConnections)
    }

    /// The names in directory `path` (without `.` and `..`), or `nil` if it does not exist and
    /// `missing` is `nil`.
    private func entries(of path: String, missing: MigrationError?) throws(MigrationError) -> [String]? {
        guard let directory = opendir(path) else {
            let code = errno
            if code == ENOENT || code == ENOTDIR {
                if let missing { throw missing }
                return nil
            }
            if code == EACCES || code == EPERM { throw .permissionDenied(path: path) }
            throw .readFailed(FileSystemError(path: path, operation: "list", errno: code))
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
