import LowEnergy

/// A setup connection through bluetoothd: the services BlueZ resolved on connecting, pairing
/// with `Device1.Pair` (this program's agent answers), the bond kept by BlueZ.
struct BlueZSetupLink: SetupLink {
    let central: BlueZCentral
    let device: BlueZDevice

    var address: BluetoothAddress { device.address }

    func offeredDataChannel(among services: [DataChannelService]) async throws(BluetoothError) -> DataChannelService? {
        guard device.isConnected else { throw .disconnected(reason: .unspecifiedError) }
        return device.firstOffered(among: services)?.0
    }

    func primaryServices() async -> [BluetoothUUID] {
        device.services.map(\.uuid)
    }

    /// `Device1.Pair` (at most 90 s: BlueZ's own pairing timeouts end it first). `AlreadyExists`
    /// (paired before) counts as paired; BlueZ keeps the bond (`Paired`, `Bonded` true).
    func pair() async throws(SecurityError) -> PairingOutcome {
        let agent: BlueZAgent
        do {
            agent = try await central.pairingAgent()
        } catch {
            throw .bluez(name: "nearby.AgentNotRegistered", message: "\(error)")
        }
        do {
            _ = try await device.bluez.rawCall(device.path, BlueZName.device, "Pair", timeout: .seconds(90))
        } catch where error.name == "org.bluez.Error.AlreadyExists" {
            // Paired before: BlueZ has the bond.
        } catch {
            _ = agent.takeMethod(device: device.path)
            throw .bluez(name: error.name, message: error.message)
        }
        // A bond BlueZ keeps: mark it trusted so it reconnects without asking (bluetoothctl's `trust`).
        _ = try? await device.bluez.rawCall(device.path, BlueZName.properties, "Set",
                                            [.string(BlueZName.device), .string("Trusted"), .variant(.boolean(true))], timeout: .seconds(5))
        return .keptByBlueZ(BlueZBondSummary(method: agent.takeMethod(device: device.path)))
    }

    func disconnect() async {
        await device.disconnect()
    }
}
