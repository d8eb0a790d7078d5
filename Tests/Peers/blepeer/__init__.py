"""A Bumble BLE test peer for nearby's BLE host (Sources/LowEnergy).

One process = one virtual "air" (``bumble.link.LocalLink``) with two virtual controllers:

* **C0** (:class:`blepeer.controller.TestController`) is exposed on an H4 transport
  (``tcp-server:127.0.0.1:PORT`` or ``pty:PATH``): the controller our Swift host drives.
* **C1** plus a Bumble ``Device`` is the accessory (:class:`blepeer.accessory.Accessory`): it
  advertises and serves the NI data-channel services (Nordic UART, Qorvo QNIS, Apple NI) and a
  test-control service.

What the accessory does with data-channel messages is a pluggable :class:`blepeer.behaviour.Behaviour`
(``EchoBehaviour`` by default), so a later peer (an NI accessory driving a virtual UWBS) reuses
everything here and only adds a behaviour.

The NI accessory (``ni_accessory.NIAccessoryBehaviour``: the accessory side of the NI protocol,
ranging through a virtual UWBS over TCP given in ``NEARBY_NI_UWBS=HOST:PORT``) is such a
behaviour: ``--behaviour blepeer.ni_accessory:NIAccessoryBehaviour``.

Modules: ``controller`` (virtual-controller fixes and the strict "hardware-like" mode),
``services`` (GATT UUIDs and service builders), ``advertising`` (AD builder), ``transport``
(C0's H4 server), ``behaviour``,
``accessory``, ``peer`` (wires it all, CLI in ``peer.main``).
"""
