import CLibUSB
import NearbySupport

/// An endpoint from the configuration descriptor.
struct USBEndpointInfo: Sendable, Hashable {
    var address: UInt8
    /// 0 control, 1 isochronous, 2 bulk, 3 interrupt.
    var transferType: UInt8
    var maxPacketSize: Int
    var isIn: Bool { address & 0x80 != 0 }
    var isBulk: Bool { transferType == 2 }
}

/// An interface (alternate setting 0) from the configuration descriptor.
struct USBInterfaceInfo: Sendable, Hashable {
    var number: UInt8
    var interfaceClass: UInt8
    var interfaceSubclass: UInt8
    var endpoints: [USBEndpointInfo]
}

/// An open libusb device handle: kernel-driver handling, claims, and transfers as async calls.
/// Async transfers complete on the context's event thread, which the handle keeps running
/// while it is open.
final class USBDeviceHandle: @unchecked Sendable {
    let context: LibUSBContext
    let record: USBDeviceRecord
    let device: String
    private(set) var pointer: OpaquePointer?

    /// Opens the device at `record`'s bus and address.
    /// - Throws: ``UWBDeviceError`` (`permissionDenied` with the udev rule, `notFound`, ...).
    init(context: LibUSBContext, record: USBDeviceRecord, device: String) throws(UWBDeviceError) {
        self.context = context
        self.record = record
        self.device = device
        let handle = try context.withDevices { list throws(UWBDeviceError) -> OpaquePointer in
            guard let entry = list.first(where: { $0.record.bus == record.bus && $0.record.address == record.address }) else {
                throw UWBDeviceError(.disconnected, device: device, reason: "the device at \(record.bus).\(record.address) went away before it could be opened")
            }
            var handle: OpaquePointer?
            let status = libusb_open(entry.device, &handle)
            guard status == 0, let handle else {
                throw LibUSBStatus.error(status, device: device, operation: "open the USB device \(record.bus).\(record.address)")
            }
            return handle
        }
        pointer = handle
        context.retainEvents()
    }

    /// Closes the handle (idempotent). Transfers must have completed.
    func close() {
        guard let pointer else { return }
        self.pointer = nil
        libusb_close(pointer)
        context.releaseEvents()
    }

    deinit { close() }

    private func handle() throws(UWBDeviceError) -> OpaquePointer {
        guard let pointer else { throw UWBDeviceError(.notOpen, device: device, reason: "the USB device is closed") }
        return pointer
    }

    // MARK: Descriptors

    /// The interfaces of the active configuration.
    func interfaces() throws(UWBDeviceError) -> [USBInterfaceInfo] {
        let handle = try handle()
        var config: UnsafeMutablePointer<libusb_config_descriptor>?
        let status = libusb_get_active_config_descriptor(libusb_get_device(handle), &config)
        guard status == 0, let config else {
            throw LibUSBStatus.error(status, device: device, operation: "read the configuration descriptor")
        }
        defer { libusb_free_config_descriptor(config) }
        var result: [USBInterfaceInfo] = []
        for i in 0..<Int(config.pointee.bNumInterfaces) {
            let interface = config.pointee.interface[i]
            guard interface.num_altsetting > 0, let setting = interface.altsetting else { continue }
            let descriptor = setting[0]
            var endpoints: [USBEndpointInfo] = []
            for e in 0..<Int(descriptor.bNumEndpoints) {
                let endpoint = descriptor.endpoint[e]
                endpoints.append(USBEndpointInfo(
                    address: endpoint.bEndpointAddress, transferType: endpoint.bmAttributes & 0x03,
                    maxPacketSize: Int(endpoint.wMaxPacketSize & 0x07FF)))
            }
            result.append(USBInterfaceInfo(
                number: descriptor.bInterfaceNumber, interfaceClass: descriptor.bInterfaceClass,
                interfaceSubclass: descriptor.bInterfaceSubClass, endpoints: endpoints))
        }
        return result
    }

    /// A string descriptor in ASCII (blocking, short), `nil` if the device has none or refuses.
    func string(at index: UInt8) -> String? {
        guard index != 0, let pointer else { return nil }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = libusb_get_string_descriptor_ascii(pointer, index, &buffer, Int32(buffer.count))
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<Int(count)], as: UTF8.self)
    }

    // MARK: Interfaces and kernel drivers

    /// The kernel driver bound to `interface`, if any ("cdc_acm"); `nil` if none or unknown.
    func kernelDriverActive(on interface: UInt8) throws(UWBDeviceError) -> Bool {
        let status = libusb_kernel_driver_active(try handle(), Int32(interface))
        if status == 1 { return true }
        if status == 0 || status == LIBUSB_ERROR_NOT_SUPPORTED.rawValue { return false }
        throw LibUSBStatus.error(status, device: device, operation: "check the kernel driver of interface \(interface)")
    }

    /// Detaches the kernel driver from `interface`.
    func detachKernelDriver(from interface: UInt8, driverName: String) throws(UWBDeviceError) {
        let status = libusb_detach_kernel_driver(try handle(), Int32(interface))
        guard status == 0 || status == LIBUSB_ERROR_NOT_FOUND.rawValue else {
            throw LibUSBStatus.error(status, device: device, operation: "detach the kernel's \(driverName) driver from interface \(interface)", kernelDriver: driverName)
        }
    }

    /// Gives `interface` back to its kernel driver (best effort: the device may be gone).
    func attachKernelDriver(to interface: UInt8) {
        guard let pointer else { return }
        _ = libusb_attach_kernel_driver(pointer, Int32(interface))
    }

    /// Claims `interface` for this process.
    func claim(_ interface: UInt8, kernelDriver: String) throws(UWBDeviceError) {
        let status = libusb_claim_interface(try handle(), Int32(interface))
        guard status == 0 else {
            throw LibUSBStatus.error(status, device: device, operation: "claim interface \(interface)", kernelDriver: kernelDriver)
        }
    }

    /// Releases `interface` (best effort).
    func release(_ interface: UInt8) {
        guard let pointer else { return }
        _ = libusb_release_interface(pointer, Int32(interface))
    }

    // MARK: Transfers

    /// How a transfer ended.
    enum Outcome: Sendable, Hashable, CustomStringConvertible {
        case completed, timedOut, noDevice, stall, cancelled, overflow, error

        init(_ status: libusb_transfer_status) {
            switch status {
            case LIBUSB_TRANSFER_COMPLETED: self = .completed
            case LIBUSB_TRANSFER_TIMED_OUT: self = .timedOut
            case LIBUSB_TRANSFER_NO_DEVICE: self = .noDevice
            case LIBUSB_TRANSFER_STALL: self = .stall
            case LIBUSB_TRANSFER_CANCELLED: self = .cancelled
            case LIBUSB_TRANSFER_OVERFLOW: self = .overflow
            default: self = .error
            }
        }

        var description: String {
            switch self {
            case .completed: "LIBUSB_TRANSFER_COMPLETED"
            case .timedOut: "LIBUSB_TRANSFER_TIMED_OUT"
            case .noDevice: "LIBUSB_TRANSFER_NO_DEVICE"
            case .stall: "LIBUSB_TRANSFER_STALL"
            case .cancelled: "LIBUSB_TRANSFER_CANCELLED"
            case .overflow: "LIBUSB_TRANSFER_OVERFLOW"
            case .error: "LIBUSB_TRANSFER_ERROR"
            }
        }
    }

    /// The result of one transfer: how it ended and the bytes transferred (IN data).
    struct Completion: Sendable {
        var outcome: Outcome
        var data: [UInt8]
    }

    /// Runs a control transfer.
    /// - Parameters:
    ///   - data: for OUT requests, the data stage; for IN requests, pass `inLength`.
    /// - Returns: the data stage of an IN request.
    /// - Throws: ``UWBDeviceError`` naming `operation` if the device stalls, times out or is gone.
    @discardableResult
    func control(requestType: UInt8, request: UInt8, value: UInt16, index: UInt16, data: [UInt8] = [], inLength: Int = 0,
                 timeout: Duration, operation: String) async throws -> [UInt8] {
        let isIn = requestType & 0x80 != 0
        let length = isIn ? inLength : data.count
        let transfer = try OneShotTransfer(size: 8 + length, device: device)
        let handle = try handle()
        transfer.buffer.withMemoryRebound(to: UInt8.self) { bytes in
            libusb_fill_control_setup(bytes.baseAddress, requestType, request, value, index, UInt16(length))
            if !isIn { for (i, byte) in data.enumerated() { bytes[8 + i] = byte } }
        }
        libusb_fill_control_transfer(
            transfer.transfer, handle, transfer.buffer.baseAddress?.assumingMemoryBound(to: UInt8.self),
            oneShotCallback, nil, UInt32(TransportTime.milliseconds(timeout)))
        let completion = try await transfer.run(offset: 8)
        try check(completion, operation: operation)
        return completion.data
    }

    /// Writes `data` to a bulk OUT endpoint as one transfer.
    /// - Returns: the completion (the caller maps timeouts to a kit-specific message).
    func bulkOut(endpoint: UInt8, data: [UInt8], timeout: Duration) async throws -> Completion {
        let transfer = try OneShotTransfer(size: data.count, device: device)
        let handle = try handle()
        transfer.buffer.copyBytes(from: data)
        libusb_fill_bulk_transfer(
            transfer.transfer, handle, endpoint, transfer.buffer.baseAddress?.assumingMemoryBound(to: UInt8.self),
            Int32(data.count), oneShotCallback, nil, UInt32(TransportTime.milliseconds(timeout)))
        return try await transfer.run(offset: 0)
    }

    private func check(_ completion: Completion, operation: String) throws(UWBDeviceError) {
        switch completion.outcome {
        case .completed:
            return
        case .noDevice:
            throw LibUSBStatus.error(LIBUSB_ERROR_NO_DEVICE.rawValue, device: device, operation: operation)
        case .timedOut:
            throw UWBDeviceError(.timeout, device: device, reason: "cannot \(operation): the device did not answer in time")
        case .stall:
            throw UWBDeviceError(.unsupported, device: device, reason: "cannot \(operation): the device refused the request (stall)",
                                 remedy: "Check that the board runs the expected firmware for this kit.")
        default:
            throw UWBDeviceError(.io, device: device, reason: "cannot \(operation): \(completion.outcome)")
        }
    }
}

/// One libusb transfer whose completion resumes an awaiting task.
///
/// The object is retained while the transfer is in flight (through `user_data`) and released by
/// the callback, so the buffer outlives the transfer even if the waiting task is cancelled.
final class OneShotTransfer: @unchecked Sendable {
    let transfer: UnsafeMutablePointer<libusb_transfer>
    let buffer: UnsafeMutableRawBufferPointer
    let reply = Promise<USBDeviceHandle.Completion>()
    private var offset = 0
    private let device: String

    init(size: Int, device: String) throws(UWBDeviceError) {
        guard let transfer = libusb_alloc_transfer(0) else {
            throw UWBDeviceError(.io, device: device, reason: "cannot allocate a USB transfer (out of memory)")
        }
        self.transfer = transfer
        self.buffer = .allocate(byteCount: max(size, 1), alignment: 8)
        self.device = device
    }

    deinit {
        libusb_free_transfer(transfer)
        buffer.deallocate()
    }

    /// Submits the filled transfer and waits for its completion; data after `offset` is returned.
    func run(offset: Int) async throws -> USBDeviceHandle.Completion {
        self.offset = offset
        let retained = Unmanaged.passRetained(self)
        transfer.pointee.user_data = retained.toOpaque()
        let status = libusb_submit_transfer(transfer)
        guard status == 0 else {
            retained.release()
            throw LibUSBStatus.error(status, device: device, operation: "submit a USB transfer")
        }
        return try await reply.value()
    }

    /// Called on the event thread when the transfer completed.
    fileprivate func completed() {
        let length = Int(transfer.pointee.actual_length)
        let data = Array(UnsafeRawBufferPointer(rebasing: buffer[offset..<min(buffer.count, offset + length)]))
        reply.fulfill(USBDeviceHandle.Completion(outcome: .init(transfer.pointee.status), data: data))
    }
}

/// The C callback of every ``OneShotTransfer``.
private let oneShotCallback: libusb_transfer_cb_fn = { transfer in
    guard let userData = transfer?.pointee.user_data else { return }
    let owner = Unmanaged<OneShotTransfer>.fromOpaque(userData).takeRetainedValue()
    owner.completed()
}
