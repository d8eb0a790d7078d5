// The BlueZ backend: bluetoothd over D-Bus (sd-bus), behind LowEnergy's seams.
//
// - DBus/: the D-Bus connection (sd-bus on its own thread), values, errors, exported objects.
// - Client/: bluetoothd's objects (a cache kept current by signals), the adapter, error mapping.
// - Central/: `BlueZCentral` (`BLECentral`): discovery, data channels over AcquireWrite /
//   AcquireNotify (WriteValue / StartNotify as the fallback), setup links, the pairing agent.
// - Peripheral/: `BlueZPeripheral` (`BLEPeripheral`): a GATT application and an LE advertisement
//   for the accessory role.
//
// specs/ble-bluez.md describes the design and cites BlueZ's documentation (doc/org.bluez.*.rst).
