"""A bluetoothd for tests: BlueZ's D-Bus API on a private bus, Bumble's host as its radio.

python-dbusmock's ``bluez5`` template (Debian ``python3-dbusmock``) gives the object manager,
``org.bluez.AgentManager1``, ``Adapter1`` and ``Device1`` objects; this package extends it with
what nearby's BlueZ backend uses, following BlueZ's documented API (doc/org.bluez.*.rst) and,
where the documentation is silent, BlueZ 5.66's code (Debian 12's bluetoothd; the adapter's
``Modalias`` says 5.66):

* discovery: ``SetDiscoveryFilter`` (per client; UUIDs matched against the advertised UUID lists,
  RSSI / Pathloss as src/adapter.c ``is_filter_match``), ``StartDiscovery`` / ``StopDiscovery``
  (one session per client, ``InProgress``), ``Device1`` objects with ``RSSI`` on every report
  while a filter is set (no delta threshold), ``ManufacturerData`` / ``ServiceData`` on every
  report with ``DuplicateData``; advertising and scan response merged per device, as the kernel
  does; temporary devices removed 30 s after they disconnect when nobody discovers;
* ``Device1.Connect`` (ATT MTU 517 requested, every service discovered, ``GattService1`` /
  ``GattCharacteristic1`` / ``GattDescriptor1`` objects, then ``ServicesResolved``; the reply
  after that), ``Disconnect``, link loss, ``Pair`` with the caller's agent (``Agent1``
  RequestConfirmation / RequestPasskey / DisplayPasskey), bonds kept (``Paired``, ``Bonded``),
  encryption on reconnect, ``Adapter1.RemoveDevice``;
* ``GattCharacteristic1``: ``ReadValue``, ``WriteValue`` (request / command by the flags and the
  ``type`` option), ``StartNotify`` / ``StopNotify`` with ``Value`` changes, ``AcquireWrite`` and
  ``AcquireNotify`` (SOCK_SEQPACKET socket pairs, the MTU returned; ``NotPermitted`` "Notify
  acquired" / ``InProgress`` / ``NotSupported`` as src/gatt-client.c), ``MTU``;
* the peripheral role: ``GattManager1.RegisterApplication`` (the application's objects read with
  ``GetManagedObjects``, served by Bumble's GATT server; writes as ``WriteValue`` with the
  ``device`` and ``mtu`` options; subscriptions as ``AcquireNotify`` (one socket, notifications to
  every subscribed device: BlueZ 5.66) or ``StartNotify``; errors mapped as
  src/gatt-database.c ``dbus_error_to_att_ecode``), ``LEAdvertisingManager1.RegisterAdvertisement``
  (``GetAll`` of ``LEAdvertisement1``; the name in the scan response, flags by the kernel),
  ``Device1`` objects for the phones that connect;
* clients leaving the bus lose their discovery sessions, agents, applications and
  advertisements, as in BlueZ.

The radio: Bumble's ``Host`` + ``Device`` on ``--hci`` (a ``ble_peer.py`` controller C0 over
``tcp-client:``), so the accessories and phones of the existing Bumble peers answer.

Threads: dbus-python runs on GLib's main loop (the main thread), Bumble on an asyncio loop in a
second thread; ``bridge.Bridge`` moves calls between them.

Lines printed on stdout (flushed) for tests: ``BLUEZ-READY``, ``BLUEZ-DISCOVERY``,
``BLUEZ-CONNECTED``, ``BLUEZ-DISCONNECTED``, ``BLUEZ-ACQUIRE-WRITE``, ``BLUEZ-ACQUIRE-NOTIFY``,
``BLUEZ-START-NOTIFY``, ``BLUEZ-WRITE-VALUE``, ``BLUEZ-AGENT``, ``BLUEZ-PAIRED``,
``BLUEZ-PAIRING-FAILED``, ``BLUEZ-REMOVED``, ``BLUEZ-REGISTER-APPLICATION``,
``BLUEZ-REGISTER-ADVERTISEMENT``, ``BLUEZ-UNREGISTER-ADVERTISEMENT``, ``BLUEZ-PHONE-CONNECTED``,
``BLUEZ-PHONE-DISCONNECTED``, ``BLUEZ-SERVER-WRITE``, ``BLUEZ-SERVER-NOTIFY``.
"""
