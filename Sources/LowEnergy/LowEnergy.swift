// LowEnergy: our BLE host. HCI transports (user channel, H4 over TCP / serial), HCI, L2CAP,
// ATT / GATT client, advertising data, and the GATT `DataChannel`.
//
// Layers, bottom up (one folder each; specs/ble-host.md has the state machines and timeouts):
//   Transport/    HCITransport: hci:N (HCIUserChannelTransport), tcp:HOST:PORT (H4SocketTransport),
//                 serial:PATH[@BAUD] (H4SerialTransport); H4Framer; HCITransportSpec
//   HCI/          HCIHost (commands + credits + timeouts, events, ACL flow control and
//                 reassembly), HCICommand, HCIEvent, LEMetaEvent, ACLPacket, HCIStatus
//   L2CAP/        L2CAPFrame; LE signaling (channel 5) and SMP refusal (channel 6)
//   ATT/          ATT PDUs, ATTBearer (one request at a time, notifications, confirmations)
//   GATT/         GATTClient (MTU, discovery, read, write, subscribe)
//   Advertising/  AdvertisingData, Advertisement, AdvertisingEventType
//   Host/         BLEHost (start, scan, connect, cancel), BLEConnection
//   DataChannel/  DataChannel, GATTDataChannel (NUS, Qorvo NI), InMemoryDataChannel
