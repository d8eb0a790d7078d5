import LowEnergy
import Testing

extension BumbleTests {
    @Suite("Bumble: reset, init and scanning")
    struct Scan {
        @Test("start() resets and configures C0; the controller info is what Bumble reports")
        func resetAndInit() async throws {
            let peer = try await BumblePeer.start()
            defer { peer.stop() }
            let host = try await peer.startHost()
            let info = try #require(await host.controller)
            #expect(info.publicAddress == BluetoothAddress("C0:11:22:33:44:55"))
            #expect(info.aclPacketLength == 27 && info.aclPacketCount == 64)
            #expect(info.leFeatures.contains(.extendedAdvertising))
            #expect(info.bluetoothVersion == "5.0")
            let own = try #require(await host.ownAddress)
            let ownType = await host.ownAddressType
            #expect(own.randomAddressKind == .staticAddress && ownType == .random)
            #expect(await host.usesExtendedCommands)
            await host.close()
        }

        @Test("a scan decodes name, UUIDs, service data, manufacturer data and TX power exactly, without filtering duplicates")
        func scanDecodes() async throws {
            let peer = try await BumblePeer.start([
                "--name", "nbp", "--advertise-uuid", "FE9A", "--service-data", "FE9A:0102",
                "--manufacturer-data", "004C:0A0B0C", "--tx-power=-8",
            ])
            defer { peer.stop() }
            #expect(peer.lines("READY").first?.contains("adv=02010603039afe05169afe010206ff4c000a0b0c020af804096e6270") == true)
            let host = try await peer.startHost()
            let address = peer.accessoryAddress
            let reports = await collect(try await host.scan(), for: .seconds(3)).filter { $0.address == address }
            #expect(reports.count >= 3, "every report is delivered (no duplicate filtering): \(reports.count)")
            let advertisement = try #require(reports.first)
            #expect(advertisement.addressType == .random)
            #expect(advertisement.rssi == -50)
            #expect(advertisement.isConnectable)
            #expect(advertisement.reportData.encoded == AdvertisingDataTests.typical)
            let data = advertisement.data
            #expect(data.flags == [.leGeneralDiscoverable, .brEdrNotSupported])
            #expect(data.serviceUUIDs == [BluetoothUUID(0xFE9A)])
            #expect(data.serviceData(for: BluetoothUUID(0xFE9A)) == [0x01, 0x02])
            #expect(data.manufacturerData == [ManufacturerData(companyIdentifier: 0x004C, data: [0x0A, 0x0B, 0x0C])])
            #expect(data.txPowerLevel == -8 && advertisement.txPower != nil)
            #expect(advertisement.name == "nbp")
            #expect(data.problems.isEmpty)
            await host.close()
        }

        @Test("the default accessory advertises the Nordic UART service and its name; the scan stops with its consumer")
        func scanNordicUART() async throws {
            let peer = try await BumblePeer.start()
            defer { peer.stop() }
            let host = try await peer.startHost()
            let advertisement = try await first(try await host.scan()) { $0.address == peer.accessoryAddress }
            #expect(advertisement.data.serviceUUIDs == [DataChannelService.nordicUART.service])
            #expect(advertisement.name == "nb-peer")
            #expect(advertisement.description.contains("F0:F1:F2:F3:F4:F5 (random)"))
            // `first` stopped iterating: the stream ended, scanning stops.
            try await HCIHostTests.waitUntil { await !host.scanning }
            await host.close()
        }

        @Test("legacy-only controller: legacy commands, ADV_IND and SCAN_RSP reports, overridden RSSI")
        func legacyReports() async throws {
            let peer = try await BumblePeer.start(["--legacy-only", "--rssi", "-72"])
            defer { peer.stop() }
            let host = try await peer.startHost()
            #expect(await !host.usesExtendedCommands)
            let reports = await collect(try await host.scan(), for: .seconds(3)).filter { $0.address == peer.accessoryAddress }
            let advInd = try #require(reports.first { $0.eventType == .advInd })
            #expect(advInd.rssi == -72 && advInd.eventType.isLegacy && advInd.isConnectable)
            #expect(advInd.name == "nb-peer")
            let scanResponse = try #require(reports.first { $0.eventType.isScanResponse })
            #expect(scanResponse.eventType.description == "SCAN_RSP")
            await host.close()
        }
    }
}
