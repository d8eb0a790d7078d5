import Logging
import LowEnergy
import Synchronization

/// This program's pairing agent (`org.bluez.Agent1`, doc/org.bluez.Agent.rst): bluetoothd asks
/// it for passkeys and confirmations while pairing, and it asks the program's
/// `PairingDelegate` (the terminal, or `--passkey` / `--confirm`), exactly as this
/// program's own Security Manager does.
///
/// Registered with `AgentManager1.RegisterAgent` and the capability of the pairing policy's IO
/// capability (`SecurityConfiguration.ioCapability`); `Device1.Pair` called on the
/// same connection uses it ("If the application has registered its own agent, then that specific
/// agent will be used", doc/org.bluez.Device.rst).
final class BlueZAgent: Sendable {
    static let path = "/org/nearby/agent"

    private let bluez: BlueZConnection
    private let delegate: any PairingDelegate
    private let logger: Logger
    /// The method each device's pairing used, as the agent saw it (by device path).
    private let methods = Mutex<[String: PairingMethod]>([:])
    /// Passkeys already shown (BlueZ calls DisplayPasskey again as keys are typed).
    private let shown = Mutex<Set<String>>([])

    private init(bluez: BlueZConnection, delegate: any PairingDelegate, logger: Logger) {
        self.bluez = bluez
        self.delegate = delegate
        self.logger = logger
    }

    /// BlueZ's capability string for `capability`.
    static func capability(_ capability: IOCapability) -> String {
        switch capability {
        case .displayOnly: "DisplayOnly"
        case .displayYesNo: "DisplayYesNo"
        case .keyboardOnly: "KeyboardOnly"
        case .keyboardDisplay: "KeyboardDisplay"
        default: "NoInputNoOutput"
        }
    }

    /// Exports the agent and registers it with `capability`.
    /// - Throws: the registration's `BluetoothError`.
    static func register(on bluez: BlueZConnection, delegate: any PairingDelegate, capability: IOCapability,
                         logger: Logger) async throws(BluetoothError) -> BlueZAgent {
        let agent = BlueZAgent(bluez: bluez, delegate: delegate, logger: logger)
        do {
            try await bluez.dbus.export(path) { call in agent.handle(call) }
        } catch {
            throw .bluez(.failed(call: "exporting the pairing agent", name: error.name, message: error.message))
        }
        let name = Self.capability(capability)
        do {
            _ = try await bluez.rawCall(BlueZName.root, BlueZName.agentManager, "RegisterAgent", [.objectPath(path), .string(name)])
        } catch where error.name == "org.bluez.Error.AlreadyExists" {
            // Registered earlier on this connection.
        } catch {
            throw BlueZConnection.map(error, call: "AgentManager1.RegisterAgent", bus: bluez.dbus.bus, adapter: bluez.adapterName)
        }
        logger.debug("pairing agent registered (\(name))")
        return agent
    }

    /// The method the pairing with `device` used, as far as the agent was asked (and forgets it).
    func takeMethod(device path: String) -> PairingMethod? {
        methods.withLock { $0.removeValue(forKey: path) }
    }

    private func address(of path: String) -> BluetoothAddress {
        if let text = bluez.properties(path, BlueZName.device)?["Address"]?.string, let address = BluetoothAddress(text) {
            return address
        }
        let tail = path.split(separator: "/").last.map { $0.dropFirst(4).replacingUnderscores() } ?? ""
        return BluetoothAddress(tail) ?? .zero
    }

    private func handle(_ call: DBusIncomingCall) {
        let info = call.info
        guard info.interface == BlueZName.agent || info.interface.isEmpty else {
            return call.fail(DBusError.unknownMethod, "\(info.interface).\(info.member) is not implemented")
        }
        let device = info.arguments.first?.string ?? ""
        let delegate = delegate
        switch info.member {
        case "Release", "Cancel":
            logger.debug("agent: \(info.member)")
            call.reply()
        case "RequestPinCode", "DisplayPinCode":
            // Classic (BR/EDR) PIN pairing: not for LE accessories.
            call.fail("org.bluez.Error.Rejected", "PIN codes are not supported")
        case "RequestPasskey":
            methods.withLock { $0[device] = .passkeyEntry(.responderDisplays) }
            let peer = address(of: device)
            Task {
                if let passkey = await delegate.requestPasskey(peer: peer) {
                    call.reply([.uint32(passkey)])
                } else {
                    call.fail("org.bluez.Error.Rejected", "no passkey given")
                }
            }
        case "DisplayPasskey":
            let passkey = UInt32(info.arguments.dropFirst().first?.integer ?? 0)
            methods.withLock { $0[device] = .passkeyEntry(.initiatorDisplays) }
            let first = shown.withLock { $0.insert("\(device) \(passkey)").inserted }
            let peer = address(of: device)
            Task {
                if first { await delegate.displayPasskey(passkey, peer: peer) }
                call.reply()
            }
        case "RequestConfirmation":
            let number = UInt32(info.arguments.dropFirst().first?.integer ?? 0)
            methods.withLock { $0[device] = .numericComparison }
            let peer = address(of: device)
            Task {
                if await delegate.confirmNumber(number, peer: peer) {
                    call.reply()
                } else {
                    call.fail("org.bluez.Error.Rejected", "the numbers were not confirmed")
                }
            }
        case "RequestAuthorization":
            let peer = address(of: device)
            Task {
                if await delegate.acceptPairing(peer: peer) {
                    call.reply()
                } else {
                    call.fail("org.bluez.Error.Rejected", "pairing not accepted")
                }
            }
        case "AuthorizeService":
            call.reply()
        default:
            call.fail(DBusError.unknownMethod, "org.bluez.Agent1.\(info.member) is not implemented")
        }
    }
}

extension Substring {
    /// `F0_F1_F2` → `F0:F1:F2`.
    func replacingUnderscores() -> String {
        split(separator: "_").joined(separator: ":")
    }
}
