import CLibUSB
import Logging
import NearbySupport
import Synchronization

/// Keeps several bulk IN transfers in flight on one endpoint so that no notification is lost,
/// resubmitting each from its completion callback (on the libusb event thread), and turns the
/// received bytes into typed UCI packets (`UCIPacketFramer`) on a ``UCIPacketStream``.
///
/// Framing (``USBInFraming``): FT230X's 2 modem-status bytes at the start of every
/// max-packet-size chunk are removed, then the bytes are cut into typed packets. Unplug (`LIBUSB_TRANSFER_NO_DEVICE`, or a resubmit failing with
/// `LIBUSB_ERROR_NO_DEVICE`) finishes the stream with ``UWBDeviceError`` code `disconnected`.
final class USBInPump: @unchecked Sendable {
    private struct State {
        var framing: USBInFraming
        var continuation: UCIPacketStream.Continuation?
        var inFlight = 0
        var stopping = false
        var consecutiveErrors = 0
        /// The pump keeps itself alive while transfers are in flight (their `user_data` points to it).
        var keepAlive: Unmanaged<USBInPump>?
    }

    private let handle: USBDeviceHandle
    private let endpoint: UInt8
    private let maxPacketSize: Int
    private let logger: Logger
    private let state: Mutex<State>
    private var transfers: [UnsafeMutablePointer<libusb_transfer>] = []
    private var buffers: [UnsafeMutableRawBufferPointer] = []
    private let retired = Promise<Void>()

    /// - Parameters:
    ///   - count: transfers kept in flight.
    ///   - size: bytes per transfer, rounded up to whole packets (at least one).
    init(handle: USBDeviceHandle, endpoint: UInt8, maxPacketSize: Int, count: Int, size: Int,
         stripsFTDIStatus: Bool, logger: Logger) throws(UWBDeviceError) {
        self.handle = handle
        self.endpoint = endpoint
        self.maxPacketSize = max(maxPacketSize, 8)
        self.logger = logger
        self.state = Mutex(State(framing: USBInFraming(stripsFTDIStatus: stripsFTDIStatus, maxPacketSize: max(maxPacketSize, 8))))
        let packets = max(1, (max(size, 64) + self.maxPacketSize - 1) / self.maxPacketSize)
        let bytes = packets * self.maxPacketSize
        for _ in 0..<max(1, count) {
            guard let transfer = libusb_alloc_transfer(0) else {
                freeTransfers()
                throw UWBDeviceError(.io, device: handle.device, reason: "cannot allocate USB transfers (out of memory)")
            }
            transfers.append(transfer)
            buffers.append(.allocate(byteCount: bytes, alignment: 8))
        }
    }

    deinit { freeTransfers() }

    private func freeTransfers() {
        for transfer in transfers { libusb_free_transfer(transfer) }
        for buffer in buffers { buffer.deallocate() }
        transfers.removeAll()
        buffers.removeAll()
    }

    /// Submits every transfer. Packets go to `continuation`.
    /// - Throws: ``UWBDeviceError`` if the first submission fails (nothing is left in flight).
    func start(_ continuation: UCIPacketStream.Continuation) throws(UWBDeviceError) {
        guard let pointer = handle.pointer else {
            throw UWBDeviceError(.notOpen, device: handle.device, reason: "the USB device is closed")
        }
        let keepAlive = Unmanaged.passRetained(self)
        state.withLock {
            $0.continuation = continuation
            $0.keepAlive = keepAlive
        }
        let userData = Unmanaged.passUnretained(self).toOpaque()
        for (transfer, buffer) in zip(transfers, buffers) {
            libusb_fill_bulk_transfer(
                transfer, pointer, endpoint, buffer.baseAddress?.assumingMemoryBound(to: UInt8.self),
                Int32(buffer.count), inPumpCallback, userData, 0)
            state.withLock { $0.inFlight += 1 }
            let status = libusb_submit_transfer(transfer)
            if status != 0 {
                retire()
                let error = LibUSBStatus.error(status, device: handle.device, operation: "start reading from endpoint 0x\(String(endpoint, radix: 16))")
                finish(throwing: error)
                throw error
            }
        }
    }

    /// Finishes the stream normally, cancels the transfers and waits (up to 2 s) until every
    /// one has come back. Afterwards the handle can be closed.
    func stop() async {
        let pending = state.withLock { state -> Int in
            state.stopping = true
            state.continuation?.finish()
            state.continuation = nil
            return state.inFlight
        }
        if pending == 0 { return }
        cancelAll()
        do {
            try await retired.value(timeout: .seconds(2), operation: "cancelling the USB read transfers")
        } catch {
            logger.warning("USB read transfers did not come back", metadata: ["device": "\(handle.device)", "error": "\(error)"])
        }
    }

    /// Cancels every transfer in flight without waiting (they come back on the event thread).
    func cancelAll() {
        state.withLock { $0.stopping = true }
        for transfer in transfers { _ = libusb_cancel_transfer(transfer) }
    }

    /// `true` once the stream has ended (unplug, error or stop).
    var hasEnded: Bool { state.withLock { $0.continuation == nil } }

    private func finish(throwing error: UWBDeviceError) {
        let continuation = state.withLock { state -> UCIPacketStream.Continuation? in
            state.stopping = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.finish(throwing: error)
    }

    private func retire() {
        let keepAlive = state.withLock { state -> Unmanaged<USBInPump>? in
            state.inFlight -= 1
            guard state.inFlight == 0 else { return nil }
            defer { state.keepAlive = nil }
            return state.keepAlive
        }
        if let keepAlive {
            retired.fulfill(())
            keepAlive.release()
        }
    }

    /// Completion of one IN transfer (event thread).
    fileprivate func completed(_ transfer: UnsafeMutablePointer<libusb_transfer>) {
        let status = transfer.pointee.status
        switch status {
        case LIBUSB_TRANSFER_COMPLETED, LIBUSB_TRANSFER_TIMED_OUT:
            let length = Int(transfer.pointee.actual_length)
            if length > 0, let bytes = transfer.pointee.buffer {
                deliver(UnsafeRawBufferPointer(start: bytes, count: length))
            }
            state.withLock { $0.consecutiveErrors = 0 }
            resubmit(transfer)
        case LIBUSB_TRANSFER_CANCELLED:
            retire()
        case LIBUSB_TRANSFER_NO_DEVICE:
            finish(throwing: UWBDeviceError(
                .disconnected, device: handle.device, reason: "the dev kit was unplugged (or reset)",
                remedy: "Plug it back in; nearby reopens it when it is back."))
            retire()
            for other in transfers where other != transfer { _ = libusb_cancel_transfer(other) }
        case LIBUSB_TRANSFER_OVERFLOW:
            logger.warning("the device sent more than the read buffer holds; that packet was lost",
                           metadata: ["device": "\(handle.device)"])
            resubmit(transfer)
        default:
            let errors = state.withLock { state -> Int in
                state.consecutiveErrors += 1
                return state.consecutiveErrors
            }
            if errors < 5 && status != LIBUSB_TRANSFER_STALL {
                logger.warning("USB read failed, retrying", metadata: ["device": "\(handle.device)", "status": "\(LibUSBStatus.name(status))"])
                resubmit(transfer)
            } else {
                finish(throwing: UWBDeviceError(
                    .io, device: handle.device, reason: "reading from the dev kit failed: \(LibUSBStatus.name(status))",
                    remedy: "Replug the board; if it keeps failing, check the cable and the firmware."))
                retire()
                for other in transfers where other != transfer { _ = libusb_cancel_transfer(other) }
            }
        }
    }

    private func resubmit(_ transfer: UnsafeMutablePointer<libusb_transfer>) {
        if state.withLock({ $0.stopping }) {
            retire()
            return
        }
        let status = libusb_submit_transfer(transfer)
        guard status != 0 else { return }
        retire()
        if status == LIBUSB_ERROR_NO_DEVICE.rawValue {
            finish(throwing: UWBDeviceError(
                .disconnected, device: handle.device, reason: "the dev kit was unplugged (or reset)",
                remedy: "Plug it back in; nearby reopens it when it is back."))
        } else {
            finish(throwing: LibUSBStatus.error(status, device: handle.device, operation: "keep reading from the dev kit"))
        }
        for other in transfers where other != transfer { _ = libusb_cancel_transfer(other) }
    }

    /// Frames the bytes of one completed transfer and yields every whole packet (event thread).
    /// Allocation-free in the steady state (``USBInFraming``; specs/usb-transport.md §3.5 has the
    /// figures). Yielding under the lock keeps the packets in order; the stream's continuation
    /// never calls back into the pump.
    private func deliver(_ bytes: UnsafeRawBufferPointer) {
        // One wake-up of the consumers per transfer (``WakeBatch``), after the lock.
        WakeBatch.run {
            state.withLock { state in
                let continuation = state.continuation
                state.framing.receive(bytes) { continuation?.yield($0) }
            }
        }
    }
}

/// The C callback of every ``USBInPump`` transfer; `user_data` is the pump (unretained: the
/// pump outlives its transfers because ``USBInPump/stop()`` waits for all of them).
private let inPumpCallback: libusb_transfer_cb_fn = { transfer in
    guard let transfer, let userData = transfer.pointee.user_data else { return }
    Unmanaged<USBInPump>.fromOpaque(userData).takeUnretainedValue().completed(transfer)
}
