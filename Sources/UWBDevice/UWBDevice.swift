// UWBDevice: the UCI client (an actor over a `UCITransport`) and its transports
// (USB through libusb, serial tty, TCP), plus the catalogue of known dev kits.
