#if canImport(Glibc)
import Glibc
#endif
public import BlueZ
import LowEnergy
public import NearbyConfig
import NearbySupport
import UWBDevice

/// The checks of `nearby doctor`, each turning what the system says into findings with fixes.
/// They only read (sysfs, /proc, libusb device lists, a socket probe) and change nothing; the
/// HCI user channel probe opens and at once closes the channel of the selected adapter.
public enum DoctorChecks {
    /// The controller `nearby` uses when neither `--hci` nor the config file names one.
    public static let defaultHCI = "hci:0"
    /// Where the udev rule is installed.
    public static let installedRulePath = "/etc/udev/rules.d/99-nearby-uwb.rules"

    /// Every check, in order: the configuration file at `config` (`nil`: the default file, if
    /// present), USB, serial ports, then Bluetooth: which backend (`hci`, else the file's
    /// `transports.hci`, else the automatic choice: BlueZ when bluetoothd owns a powered adapter,
    /// else ``defaultHCI``) and why, and that backend's checks.
    public static func all(hci: String?, config: String?, bus: DBusConnection.Bus = .system) async -> DoctorReport {
        let (configFindings, configuration) = Self.config(path: config)
        var findings = configFindings
        findings += usb()
        findings += serialPorts()
        let given = Precedence.resolve(flag: hci, config: configuration.transports.hci, default: nil)
        let spec: String
        do {
            let choice = try await BluetoothBackends.resolve(given, bus: bus)
            spec = choice.spec.description
            findings.append(DoctorFinding(
                "backend", .info, "\(choice.spec.isBlueZ ? "BlueZ (bluetoothd over D-Bus)" : "this program's own host") on \(spec): \(choice.reason)",
                fix: given == nil && !choice.spec.isBlueZ
                    ? "to share the adapter with the rest of the system instead, start bluetoothd with the adapter powered on (or give --hci bluez)" : nil))
        } catch {
            spec = given ?? defaultHCI
        }
        findings += await bluetooth(spec: spec, bus: bus)
        return DoctorReport(hci: spec, findings: findings)
    }

    // MARK: Configuration

    /// The configuration file: valid, absent, or every problem.
    public static func config(path: String?) -> (findings: [DoctorFinding], configuration: NearbyConfiguration) {
        do {
            let loaded = try ConfigurationFile.load(path: path, validators: .specs)
            guard let file = loaded.path else {
                let where_ = ConfigurationFile.defaultPath().map { "at \($0)" } ?? "(HOME is not set)"
                return ([DoctorFinding("config", .ok, "no configuration file \(where_); defaults apply")], loaded.configuration)
            }
            let hooks = loaded.configuration.effectiveHooks.count
            return ([DoctorFinding("config", .ok, "\(file) is valid (\(hooks) hook\(hooks == 1 ? "" : "s"))")], loaded.configuration)
        } catch {
            let findings = error.issues.map { issue in
                DoctorFinding(
                    "config", .error, "\(error.source):\(issue.line): \(issue.key.isEmpty ? "" : issue.key + ": ")\(issue.message)",
                    fix: "edit the file; `nearby config check \(error.source)` lists every problem, `nearby config example` shows a valid file")
            }
            return (findings, NearbyConfiguration())
        }
    }

    // MARK: UWB

    /// Known dev kits on USB and whether this user may open them.
    public static func usb() -> [DoctorFinding] {
        let supported = DevKit.all.map { "\($0.name) \($0.usbID)" }.joined(separator: ", ")
        let devices: [AttachedUSBDevice]
        do {
            devices = try UWBDeviceDiscovery.usbDevices()
        } catch {
            return [DoctorFinding(
                "usb", .warning, "cannot list USB devices: \(error)",
                fix: "check that /dev/bus/usb exists (in a container, pass the USB bus through: --device /dev/bus/usb)")]
        }
        guard !devices.isEmpty else {
            return [DoctorFinding(
                "usb", .warning, "no UWB dev kit on USB (supported: \(supported))",
                fix: "plug in a kit; without hardware use `nearby demo` or `--device sim`")]
        }
        let ruleInstalled = access(installedRulePath, F_OK) == 0
        return devices.map { device in
            let name = device.kit?.name ?? "USB device"
            switch device.access {
            case .ok:
                return DoctorFinding("usb", .ok, "\(name) at \(device.spec) (port \(device.portName)) can be opened")
            case .permissionDenied:
                let fix = ruleInstalled
                    ? "the udev rule is installed (\(installedRulePath)): replug the kit, and join the plugdev group (`sudo usermod -aG plugdev $USER`, then log in again)"
                    : "install the udev rule, then replug the kit: `sudo cp \(UWBDeviceError.udevRulePath) /etc/udev/rules.d/ && sudo udevadm control --reload && sudo udevadm trigger`; join plugdev (`sudo usermod -aG plugdev $USER`, then log in again)"
                return DoctorFinding("usb", .error, "\(name) at \(device.spec): permission denied", fix: fix)
            case .failed(let reason):
                return DoctorFinding(
                    "usb", .warning, "\(name) at \(device.spec) cannot be opened: \(reason)",
                    fix: "check that no other program (ModemManager, another nearby) holds it; replug it")
            }
        }
    }

    /// USB serial ports and whether this user may read and write them.
    public static func serialPorts() -> [DoctorFinding] {
        let ports = SerialPorts.list()
        guard !ports.isEmpty else {
            return [DoctorFinding("serial", .info, "no USB serial ports (/dev/ttyACM*, /dev/ttyUSB*)")]
        }
        return ports.map { port in
            let what = port.kit.map { "\($0.name) serial port" } ?? "serial port"
            if access(port.path, R_OK | W_OK) == 0 {
                return DoctorFinding("serial", .ok, "\(what) \(port.path) can be opened")
            }
            var info = stat()
            let group = stat(port.path, &info) == 0 ? groupName(info.st_gid) : nil
            let fix = group.map { "join the \($0) group: `sudo usermod -aG \($0) $USER`, then log in again" }
                ?? "install the udev rule \(UWBDeviceError.udevRulePath) (gives plugdev access)"
            return DoctorFinding(
                "serial", port.kit != nil ? .error : .warning,
                "\(what) \(port.path): no read/write access\(group.map { " (group \($0))" } ?? "")", fix: fix)
        }
    }

    // MARK: Bluetooth

    /// Kernel Bluetooth, adapters, capability, bluetoothd and the HCI user channel of `spec`;
    /// for `bluez[:hciN]`: the system bus, bluetoothd, the adapter and its power.
    public static func bluetooth(spec text: String, bus: DBusConnection.Bus = .system) async -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        let backend: BluetoothBackendSpec
        do {
            backend = try BluetoothBackendSpec(parsing: text)
        } catch {
            return [DoctorFinding("hci", .error, "\(error)", fix: "fix --hci or transports.hci in the config file")]
        }
        guard case .host(let spec) = backend else {
            if case .bluez(let adapter) = backend { return await blueZ(adapter: adapter, bus: bus) }
            return []
        }
        var adapter: UInt16?
        if case .userChannel(let index) = spec { adapter = index }
        let needsKernel = adapter != nil
        let blocking: DoctorFinding.Status = needsKernel ? .error : .info

        // Kernel Bluetooth: can an AF_BLUETOOTH socket be created at all?
        let btprotoHCI: Int32 = 1
        let fd = socket(AF_BLUETOOTH, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), btprotoHCI)
        let socketErrno = fd < 0 ? errno : 0
        if fd >= 0 { close(fd) }
        let kernel = socketErrno != EAFNOSUPPORT
        if !kernel {
            findings.append(DoctorFinding(
                "bluetooth", blocking, "no kernel Bluetooth (socket(AF_BLUETOOTH) fails: EAFNOSUPPORT)",
                fix: "use a controller over H4 instead: --hci tcp:HOST:PORT or --hci serial:/dev/ttyACM0 (e.g. a Zephyr hci_uart board); "
                    + "or load the kernel module (`sudo modprobe bluetooth`; containers, WSL and some VMs have none)"))
        } else if fd < 0 {
            findings.append(DoctorFinding("bluetooth", .warning, "socket(AF_BLUETOOTH) fails: \(String(cString: strerror(socketErrno)))"))
        } else {
            findings.append(DoctorFinding("bluetooth", .ok, "kernel Bluetooth is present"))
        }

        let adapters = kernel ? listAdapters() : []
        if kernel {
            if adapters.isEmpty {
                findings.append(DoctorFinding(
                    "adapter", blocking, "no Bluetooth adapter (/sys/class/bluetooth is empty)",
                    fix: "plug in a Bluetooth adapter, or use --hci tcp:/serial: with an H4 controller"))
            } else {
                findings.append(DoctorFinding("adapter", .ok, "adapters: \(adapters.joined(separator: ", "))"))
            }
        }

        let hasCapability = effectiveCapabilities().map { $0 & (1 << 12) != 0 } ?? (geteuid() == 0)
        if hasCapability {
            findings.append(DoctorFinding("capability", .ok, "CAP_NET_ADMIN is effective (needed for the HCI user channel)"))
        } else {
            findings.append(DoctorFinding(
                "capability", kernel ? blocking : .info, "CAP_NET_ADMIN is not effective: the HCI user channel (hci:N) will fail with EPERM",
                fix: "grant it once: `sudo setcap cap_net_admin+ep \"$(command -v nearby)\"`, or run as a systemd service with AmbientCapabilities=CAP_NET_ADMIN (packaging/nearby.service)"))
        }

        let daemon = bluetoothdRunning()
        if let daemon {
            let index = adapter ?? 0
            findings.append(DoctorFinding(
                "bluetoothd", .warning, "bluetoothd is running (pid \(daemon)); it keeps adapters powered and then the user channel fails with EBUSY",
                fix: "share the adapter through BlueZ instead: --hci bluez; or power it off for nearby's own host: `sudo btmgmt --index \(index) power off`, or stop BlueZ: `sudo systemctl stop bluetooth`"))
        } else {
            findings.append(DoctorFinding("bluetoothd", .ok, "bluetoothd is not running"))
        }

        if let adapter, kernel {
            if !adapters.contains("hci\(adapter)") && !adapters.isEmpty {
                findings.append(DoctorFinding(
                    "hci", .error, "there is no adapter hci\(adapter) (found \(adapters.joined(separator: ", ")))",
                    fix: "choose one of them: --hci hci:N or transports.hci in the config file"))
            } else if !adapters.isEmpty {
                findings.append(await probeUserChannel(adapter))
            }
        } else if let note = usingNote(spec) {
            findings.append(note)
        }
        return findings
    }

    /// The BlueZ backend: the system bus, bluetoothd and its version, the adapter, its power and
    /// whether it can serve the accessory role.
    public static func blueZ(adapter: String?, bus: DBusConnection.Bus = .system) async -> [DoctorFinding] {
        switch await BlueZProbe.probe(bus: bus) {
        case .noBus(let detail):
            return [DoctorFinding("dbus", .error, "\(BlueZError.noSystemBus(bus: "\(bus)", detail: detail))")]
        case .libraryMissing(let detail):
            return [DoctorFinding("dbus", .error, "\(BlueZError.libraryMissing(detail: detail))")]
        case .notRunning:
            return [DoctorFinding("dbus", .ok, "\(bus) is reachable"),
                    DoctorFinding("bluetoothd", .error, "\(BlueZError.notRunning(bus: "\(bus)"))")]
        case .accessDenied(let user, let detail):
            return [DoctorFinding("bluetoothd", .error, "\(BlueZError.accessDenied(call: "GetManagedObjects", user: user, detail: detail))")]
        case .failed(let detail):
            return [DoctorFinding("bluetoothd", .error, "bluetoothd did not answer: \(detail)", fix: "check `systemctl status bluetooth`")]
        case .running(let adapters, let version):
            var findings = [
                DoctorFinding("dbus", .ok, "\(bus) is reachable"),
                DoctorFinding("bluetoothd", .ok, "bluetoothd answers\(version.map { " (BlueZ \($0))" } ?? "")"),
            ]
            guard let chosen = adapter.map({ name in adapters.first { $0.name == name } }) ?? adapters.first else {
                findings.append(DoctorFinding("adapter", .error, "\(BlueZError.noAdapter(requested: adapter, available: adapters.map(\.name)))"))
                return findings
            }
            if chosen.powered {
                findings.append(DoctorFinding("adapter", .ok, "\(chosen.name) (\(chosen.address ?? "?")) is powered; nearby shares it through BlueZ"))
            } else {
                findings.append(DoctorFinding("adapter", .error, "\(BlueZError.poweredOff(adapter: chosen.name, blocked: chosen.blocked))"))
            }
            findings.append(chosen.canServe
                ? DoctorFinding("accessory", .ok, "\(chosen.name) offers GATT applications and advertising (nearby accessory; one phone at a time through BlueZ)")
                : DoctorFinding("accessory", .warning, "\(BlueZError.tooOld(feature: "LEAdvertisingManager1 / GattManager1", needed: "5.43", running: version?.description))"))
            return findings
        }
    }

    private static func usingNote(_ spec: HCITransportSpec) -> DoctorFinding? {
        switch spec {
        case .userChannel: return nil
        case .tcp(let host, let port):
            return DoctorFinding("hci", .info, "controller: H4 over TCP at \(host):\(port) (not probed; nearby connects when it starts)")
        case .serial(let path, _, _):
            if access(path, F_OK) != 0 {
                return DoctorFinding("hci", .error, "controller tty \(path) does not exist", fix: "check the path (`ls /dev/ttyACM* /dev/ttyUSB*`) and plug the controller in")
            }
            if access(path, R_OK | W_OK) != 0 {
                return DoctorFinding("hci", .error, "controller tty \(path): no read/write access", fix: "join the dialout group: `sudo usermod -aG dialout $USER`, then log in again")
            }
            return DoctorFinding("hci", .ok, "controller tty \(path) can be opened")
        }
    }

    /// Opens and closes the user channel of hci`index`: the open's typed error says what blocks it.
    private static func probeUserChannel(_ index: UInt16) async -> DoctorFinding {
        do {
            let transport = try HCIUserChannelTransport(adapter: index)
            await transport.close()
            return DoctorFinding("hci", .ok, "the HCI user channel of hci\(index) can be opened")
        } catch {
            return DoctorFinding("hci", .error, "\(error)")
        }
    }

    // MARK: System facts

    /// `hci0`, `hci1`, ... from /sys/class/bluetooth.
    public static func listAdapters(sysfs: String = "/sys/class/bluetooth") -> [String] {
        Directory.entries(sysfs).filter { $0.hasPrefix("hci") && !$0.contains(":") }.sorted()
    }

    /// The effective capability mask (`CapEff` of /proc/self/status), `nil` if unreadable.
    public static func effectiveCapabilities(status path: String = "/proc/self/status") -> UInt64? {
        guard let bytes = try? AtomicFile.read(path) else { return nil }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") where line.hasPrefix("CapEff:") {
            return UInt64(line.dropFirst("CapEff:".count).trimmingPrefix(while: { $0 == " " || $0 == "\t" }), radix: 16)
        }
        return nil
    }

    /// The pid of a running `bluetoothd`, if any (scans /proc/*/comm).
    public static func bluetoothdRunning(proc: String = "/proc") -> Int? {
        for entry in Directory.entries(proc) {
            guard let pid = Int(entry) else { continue }
            guard let bytes = try? AtomicFile.read("\(proc)/\(entry)/comm") else { continue }
            if String(decoding: bytes, as: UTF8.self).trimmingSuffix(while: { $0 == "\n" }) == "bluetoothd" { return pid }
        }
        return nil
    }

    private static func groupName(_ gid: gid_t) -> String? {
        guard let entry = getgrgid(gid), let name = entry.pointee.gr_name else { return nil }
        return String(cString: name)
    }
}

extension StringProtocol {
    fileprivate func trimmingSuffix(while predicate: (Character) -> Bool) -> String {
        var text = String(self)
        while let last = text.last, predicate(last) { text.removeLast() }
        return text
    }
}
