// LowEnergy: our BLE host. HCI transports (user channel, H4 over TCP / serial), HCI, L2CAP,
// ATT / GATT client, advertising data, and the GATT `DataChannel`.
