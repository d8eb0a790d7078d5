public import Logging
import NearbySupport
import Synchronization

/// UCI over USB through libusb, for the dev kits in ``DevKit`` (and any CDC-ACM UCI device).
///
/// Bring-up on ``open()``:
/// - **CDC-ACM** (Qorvo DWM3001CDK): find the data interface (class 0x0A) and its bulk
///   endpoints in the configuration descriptor, detach the kernel's `cdc_acm` from the
///   communication and data interfaces, claim both, `SET_LINE_CODING` and
///   `SET_CONTROL_LINE_STATE` with DTR and RTS (the firmware is silent without DTR).
/// - **FT230X** (NXP SR150 EVK): detach `ftdi_sio`, claim interface 0, FTDI vendor requests
///   (reset and purge, 3,000,000 baud, 8N1, flow control, DTR/RTS, latency timer); the 2 modem
///   status bytes of every IN packet are removed and host -> board packets get the NXP
///   host-interface framing.
///
/// Several bulk IN transfers stay in flight on the libusb event thread, so no notification is
/// lost; IN data is parsed as a byte stream (a packet may span USB packets, several may share
/// one). Each ``send(_:)`` is one bulk transfer holding the whole packet.
///
/// Unplug finishes the packet stream with ``UWBDeviceError`` code `disconnected` (within
/// milliseconds of the kernel reporting it). ``waitUntilPresent(timeout:)`` waits for the kit
/// to come back (hotplug events where libusb has them, else polling) and ``open()`` redoes the
/// whole bring-up; a kit pinned with `@BUS.ADDR` is found again on the same port although its
/// address changed. ``close()`` gives the interfaces back to the kernel driver.
public actor USBTransport: UCITransport {
    /// "usb:VID:PID" or "usb:VID:PID@BUS.ADDR".
    public nonisolated let name: String
    /// The vendor ID to open.
    public nonisolated let vendorID: UInt16
    /// The product ID to open.
    public nonisolated let productID: UInt16
    private let bus: UInt8?
    private let address: UInt8?
    private let configuration: UCITransportConfiguration
    private let logger: Logger

    private struct Session {
        var handle: USBDeviceHandle
        var pump: USBInPump
        var kit: DevKit
        var bulkOut: UInt8
        var claimed: [UInt8]
        var detached: [UInt8]
    }
    private var session: Session?
    /// Where the kit was last opened (bus and port path), to find it again after a replug.
    private var lastLocation: (bus: UInt8, ports: [UInt8])?

    /// Creates a transport for the device `vendorID:productID`, optionally pinned to `bus.address`.
    public init(vendorID: UInt16, productID: UInt16, bus: UInt8? = nil, address: UInt8? = nil,
                configuration: UCITransportConfiguration = .init(), logger: Logger = Logger(label: "nearby.uwb.usb")) {
        self.vendorID = vendorID
        self.productID = productID
        self.bus = bus
        self.address = address
        self.configuration = configuration
        self.logger = logger
        self.name = UWBDeviceSpec.usb(vendorID: vendorID, productID: productID, bus: bus, address: address).description
    }

    deinit {
        session?.pump.cancelAll()
    }

    // MARK: UCITransport

    /// Finds the kit, brings it up (see the type's documentation) and starts the IN transfers.
    /// After a disconnect it tears the old session down first.
    /// - Throws: ``UWBDeviceError``: `notFound` (listing the attached kits), `invalidSpec`
    ///   (several match), `permissionDenied` (udev rule), `busy`, `unsupported`, `timeout`,
    ///   `disconnected`, `alreadyOpen`.
    public func open() async throws -> UCIPacketStream {
        if let session {
            guard session.pump.hasEnded else {
                throw UWBDeviceError(.alreadyOpen, device: name, reason: "the dev kit is already open", remedy: "Call close() first.")
            }
            await tearDown(session)
            self.session = nil
        }
        let context = try LibUSBContext.get()
        let record = try locate(in: context.devices())
        let handle = try USBDeviceHandle(context: context, record: record, device: name)
        do {
            let (stream, session) = try await bringUp(handle)
            self.session = session
            lastLocation = (record.bus, record.portPath)
            logger.debug("opened", metadata: ["device": "\(name)", "kit": "\(session.kit.name)", "at": "\(record.bus).\(record.address)"])
            return stream
        } catch {
            handle.close()
            throw error
        }
    }

    /// Writes one whole UCI packet as one bulk transfer (FT230X: with the NXP header).
    /// - Throws: ``UWBDeviceError``: `invalidPacket`, `timeout` (with the kit's likely cause:
    ///   DTR, firmware, flow control), `disconnected`, `notOpen`, `io`.
    public func send(_ packet: [UInt8]) async throws {
        guard let session else {
            throw UWBDeviceError(.notOpen, device: name, reason: "the dev kit is not open", remedy: "Call open() first.")
        }
        try UCIPacketCheck.validate(packet, device: name)
        let bytes = session.kit.framing == .nxpHostInterface ? BoardFraming.frame(packet) : packet
        let completion = try await session.handle.bulkOut(endpoint: session.bulkOut, data: bytes, timeout: configuration.writeTimeout)
        switch completion.outcome {
        case .completed where completion.data.count == bytes.count:
            return
        case .timedOut:
            throw writeTimeout(kit: session.kit)
        case .noDevice:
            throw UWBDeviceError(.disconnected, device: name, reason: "the dev kit was unplugged (or reset)",
                                 remedy: "Plug it back in; nearby reopens it when it is back.")
        default:
            throw UWBDeviceError(.io, device: name, reason: "writing a UCI packet failed: \(completion.outcome)",
                                 remedy: "Replug the board; if it keeps failing, check the cable and the firmware.")
        }
    }

    /// Stops the IN transfers, drops DTR, releases the interfaces and gives them back to the
    /// kernel driver; idempotent. The stream finishes normally.
    public func close() async {
        guard let session else { return }
        self.session = nil
        await tearDown(session)
    }

    /// Waits until the kit can be located again (hotplug arrivals, else polling every 100 ms).
    /// - Throws: ``UWBDeviceError`` `timeout`.
    public func waitUntilPresent(timeout: Duration) async throws {
        let context = try LibUSBContext.get()
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        let arrival = Mutex<Promise<Void>?>(nil)
        let registration = context.registerArrival(vendorID: vendorID, productID: productID) {
            _ = arrival.withLock { $0 }?.fulfill(())
        }
        defer { registration?.cancel() }
        // With hotplug events the poll is only a safety net; without them it is the mechanism.
        let pollInterval: Duration = registration == nil ? .milliseconds(100) : .milliseconds(500)
        while true {
            let promise = Promise<Void>()
            arrival.withLock { $0 = promise }
            if (try? locate(in: context.devices())) != nil { return }
            let remaining = clock.now.duration(to: deadline)
            guard remaining > .zero else {
                throw UWBDeviceError(
                    .timeout, device: name, reason: "the dev kit did not come back within \(TransportTime.text(timeout))",
                    remedy: "Plug it in (or check the cable); `nearby uwb list` shows what is attached.")
            }
            _ = try? await promise.value(timeout: min(pollInterval, remaining), operation: "waiting for \(name)")
            try Task.checkCancellation()
        }
    }

    // MARK: Finding the device

    /// Picks the device to open among `devices`.
    func locate(in devices: [USBDeviceRecord]) throws(UWBDeviceError) -> USBDeviceRecord {
        let matching = devices.filter { $0.vendorID == vendorID && $0.productID == productID }
        if let bus, let address {
            if let exact = matching.first(where: { $0.bus == bus && $0.address == address }) { return exact }
            // After a replug the address changes; the port does not.
            if let lastLocation, lastLocation.bus == bus,
               let moved = matching.first(where: { $0.bus == bus && $0.portPath == lastLocation.ports }) {
                return moved
            }
            throw notFound(devices, detail: "no \(UWBDeviceSpec.hex4(vendorID)):\(UWBDeviceSpec.hex4(productID)) at bus \(bus) address \(address)")
        }
        if matching.count == 1 { return matching[0] }
        if matching.isEmpty {
            throw notFound(devices, detail: "no USB device \(UWBDeviceSpec.hex4(vendorID)):\(UWBDeviceSpec.hex4(productID)) is attached")
        }
        if let lastLocation, let same = matching.first(where: { $0.bus == lastLocation.bus && $0.portPath == lastLocation.ports }) {
            return same
        }
        let specs = matching.map { UWBDeviceSpec.usb(vendorID: vendorID, productID: productID, bus: $0.bus, address: $0.address).description }
        throw UWBDeviceError(
            .invalidSpec, device: name, reason: "\(matching.count) devices match: \(specs.joined(separator: ", "))",
            remedy: "Name one with @BUS.ADDR, e.g. --device \(specs[0]).")
    }

    private func notFound(_ devices: [USBDeviceRecord], detail: String) -> UWBDeviceError {
        let kits = devices.compactMap { record -> String? in
            guard let kit = DevKit.matching(vendorID: record.vendorID, productID: record.productID) else { return nil }
            return "\(UWBDeviceSpec.usb(vendorID: record.vendorID, productID: record.productID, bus: record.bus, address: record.address)) (\(kit.name))"
        }
        let attached = kits.isEmpty
            ? "No known UWB dev kit is attached (\(devices.count) USB device(s) in all)."
            : "Attached dev kits: \(kits.joined(separator: ", "))."
        var hint = ""
        if let kit = DevKit.matching(vendorID: vendorID, productID: productID) {
            hint = " For the \(kit.name), \(kit.hint)."
        }
        return UWBDeviceError(.notFound, device: name, reason: detail,
                              remedy: "\(attached)\(hint) Run `nearby uwb list` to see what is attached.")
    }

    // MARK: Bring-up

    private func bringUp(_ handle: USBDeviceHandle) async throws -> (UCIPacketStream, Session) {
        let interfaces = try handle.interfaces()
        let catalogued = DevKit.matching(vendorID: vendorID, productID: productID)
        let kind: DevKit.Kind
        if let catalogued {
            kind = catalogued.kind
        } else if interfaces.contains(where: { $0.interfaceClass == 0x0A }) {
            kind = .cdcACM
        } else if vendorID == 0x0403 {
            kind = .ft230x
        } else {
            throw UWBDeviceError(
                .unsupported, device: name,
                reason: "\(UWBDeviceSpec.hex4(vendorID)):\(UWBDeviceSpec.hex4(productID)) is neither a known dev kit nor a CDC-ACM device",
                remedy: "Supported: \(DevKit.all.map(\.description).joined(separator: "; ")), or any CDC-ACM device speaking raw UCI.")
        }
        switch kind {
        case .cdcACM: return try await bringUpCDCACM(handle, interfaces: interfaces, catalogued: catalogued)
        case .ft230x: return try await bringUpFTDI(handle, interfaces: interfaces, catalogued: catalogued)
        }
    }

    private func takeOver(_ handle: USBDeviceHandle, interfaces numbers: [UInt8], driver: String,
                          detached: inout [UInt8], claimed: inout [UInt8]) throws(UWBDeviceError) {
        for number in numbers {
            if try handle.kernelDriverActive(on: number) {
                try handle.detachKernelDriver(from: number, driverName: driver)
                detached.append(number)
                logger.debug("detached kernel driver", metadata: ["device": "\(name)", "interface": "\(number)", "driver": "\(driver)"])
            }
            try handle.claim(number, kernelDriver: driver)
            claimed.append(number)
        }
    }

    private func bringUpCDCACM(_ handle: USBDeviceHandle, interfaces: [USBInterfaceInfo], catalogued: DevKit?)
        async throws -> (UCIPacketStream, Session) {
        guard let data = interfaces.first(where: { $0.interfaceClass == 0x0A }),
              let bulkIn = data.endpoints.first(where: { $0.isBulk && $0.isIn }),
              let bulkOut = data.endpoints.first(where: { $0.isBulk && !$0.isIn }) else {
            throw UWBDeviceError(.unsupported, device: name,
                                 reason: "no CDC data interface with bulk IN and OUT endpoints in the configuration descriptor",
                                 remedy: "Check that the board runs UCI firmware with USB CDC-ACM (for the DWM3001CDK: J20 and Qorvo's UCI firmware).")
        }
        let communication = interfaces.first(where: { $0.interfaceClass == 0x02 && $0.interfaceSubclass == 0x02 })
        var kit = catalogued ?? DevKit(
            identifier: "cdc-acm", name: "CDC-ACM UCI device", vendorID: vendorID, productID: productID, kind: .cdcACM,
            dataInterface: data.number, communicationInterface: communication?.number, bulkIn: bulkIn.address,
            bulkOut: bulkOut.address, defaultBaud: 115_200, framing: .rawUCI, kernelDriver: "cdc_acm", hint: "")
        kit.dataInterface = data.number
        kit.communicationInterface = communication?.number
        kit.bulkIn = bulkIn.address
        kit.bulkOut = bulkOut.address
        kit.maxPacketSize = bulkIn.maxPacketSize

        var detached: [UInt8] = []
        var claimed: [UInt8] = []
        do {
            try takeOver(handle, interfaces: [communication?.number, data.number].compactMap { $0 }, driver: kit.kernelDriver,
                         detached: &detached, claimed: &claimed)
            if let control = communication?.number {
                // 115200 8N1: the firmware ignores the rate, but some hosts' tools expect it set.
                try await handle.control(requestType: 0x21, request: 0x20, value: 0, index: UInt16(control),
                                         data: [0x00, 0xC2, 0x01, 0x00, 0x00, 0x00, 0x08], timeout: .seconds(1),
                                         operation: "set the line coding (SET_LINE_CODING)")
                if configuration.assertDTR {
                    try await handle.control(requestType: 0x21, request: 0x22, value: 0x0003, index: UInt16(control),
                                             timeout: .seconds(1), operation: "raise DTR (SET_CONTROL_LINE_STATE)")
                }
            }
            let (stream, session) = try startPump(handle, kit: kit, detached: detached, claimed: claimed)
            return (stream, session)
        } catch {
            release(handle, claimed: claimed, detached: detached)
            throw error
        }
    }

    private func bringUpFTDI(_ handle: USBDeviceHandle, interfaces: [USBInterfaceInfo], catalogued: DevKit?)
        async throws -> (UCIPacketStream, Session) {
        guard let interface = interfaces.first,
              let bulkIn = interface.endpoints.first(where: { $0.isBulk && $0.isIn }),
              let bulkOut = interface.endpoints.first(where: { $0.isBulk && !$0.isIn }) else {
            throw UWBDeviceError(.unsupported, device: name, reason: "no FTDI interface with bulk IN and OUT endpoints")
        }
        var kit = catalogued ?? DevKit.sr150evk
        kit.dataInterface = interface.number
        kit.bulkIn = bulkIn.address
        kit.bulkOut = bulkOut.address
        kit.maxPacketSize = bulkIn.maxPacketSize
        guard let divisor = FTDI.baudDivisor(for: kit.defaultBaud) else {
            throw UWBDeviceError(.unsupported, device: name, reason: "the FT230X cannot run at \(kit.defaultBaud) baud")
        }
        var detached: [UInt8] = []
        var claimed: [UInt8] = []
        do {
            try takeOver(handle, interfaces: [interface.number], driver: kit.kernelDriver, detached: &detached, claimed: &claimed)
            let port = UInt16(interface.number) + 1  // FTDI port index: interface A = 1
            func vendor(_ request: FTDI.Request, _ value: UInt16, _ index: UInt16, _ what: String) async throws {
                try await handle.control(requestType: 0x40, request: request.rawValue, value: value, index: index,
                                         timeout: .seconds(1), operation: what)
            }
            try await vendor(.reset, FTDI.resetSIO, port, "reset the FT230X")
            try await vendor(.reset, FTDI.purgeRX, port, "purge the FT230X receive buffer")
            try await vendor(.reset, FTDI.purgeTX, port, "purge the FT230X transmit buffer")
            try await vendor(.setBaudRate, divisor.value, divisor.index, "set \(kit.defaultBaud) baud")
            try await vendor(.setData, FTDI.data8N1, port, "set 8N1")
            let flow: UInt16 = configuration.ftdiHardwareFlowControl ? 0x0100 : 0x0000
            try await vendor(.flowControl, 0, flow | port, "set the flow control")
            try await vendor(.modemControl, FTDI.dtrAndRTSOn, port, "raise DTR and RTS")
            try await vendor(.setLatencyTimer, UInt16(max(1, configuration.ftdiLatencyTimer)), port, "set the latency timer")
            let (stream, session) = try startPump(handle, kit: kit, detached: detached, claimed: claimed)
            return (stream, session)
        } catch {
            release(handle, claimed: claimed, detached: detached)
            throw error
        }
    }

    private func startPump(_ handle: USBDeviceHandle, kit: DevKit, detached: [UInt8], claimed: [UInt8]) throws
        -> (UCIPacketStream, Session) {
        let pump = try USBInPump(
            handle: handle, endpoint: kit.bulkIn, maxPacketSize: kit.maxPacketSize,
            count: configuration.inTransfersInFlight, size: configuration.inTransferSize,
            stripsFTDIStatus: kit.kind == .ft230x, logger: logger)
        let (stream, continuation) = UCIPacketStream.makeStream()
        try pump.start(continuation)
        return (stream, Session(handle: handle, pump: pump, kit: kit, bulkOut: kit.bulkOut, claimed: claimed, detached: detached))
    }

    private func release(_ handle: USBDeviceHandle, claimed: [UInt8], detached: [UInt8]) {
        for number in claimed { handle.release(number) }
        for number in detached { handle.attachKernelDriver(to: number) }
    }

    private func tearDown(_ session: Session) async {
        await session.pump.stop()
        if session.kit.kind == .cdcACM, configuration.assertDTR, let control = session.kit.communicationInterface {
            // Drop DTR as the kernel's cdc_acm does on close: the firmware closes its port and
            // discards queued output. Best effort: the kit may already be gone.
            _ = try? await session.handle.control(requestType: 0x21, request: 0x22, value: 0, index: UInt16(control),
                                                  timeout: .milliseconds(200), operation: "drop DTR")
        }
        release(session.handle, claimed: session.claimed, detached: session.detached)
        session.handle.close()
    }

    private func writeTimeout(kit: DevKit) -> UWBDeviceError {
        switch kit.kind {
        case .cdcACM:
            let dtr = configuration.assertDTR
                ? "DTR was raised, so the firmware may be stuck or not a UCI firmware"
                : "DTR is off (assertDTR is false): the firmware ignores the host until SET_CONTROL_LINE_STATE raises DTR"
            return UWBDeviceError(
                .timeout, device: name,
                reason: "the \(kit.name) did not accept a UCI packet within \(TransportTime.text(configuration.writeTimeout)) (\(dtr))",
                remedy: "Replug the board (\(kit.hint.isEmpty ? "check its firmware" : kit.hint)).")
        case .ft230x:
            return UWBDeviceError(
                .timeout, device: name,
                reason: "the FT230X of the \(kit.name) did not accept a UCI packet within \(TransportTime.text(configuration.writeTimeout))",
                remedy: configuration.ftdiHardwareFlowControl
                    ? "The board holds CTS low: check its firmware, or turn hardware flow control off."
                    : "Replug the board and check its firmware (\(kit.hint)).")
        }
    }
}
