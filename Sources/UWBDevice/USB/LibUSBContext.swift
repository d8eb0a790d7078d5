import CLibUSB
import Foundation
import NearbySupport
import Synchronization

/// A USB device as enumerated: where it is and what it is.
struct USBDeviceRecord: Sendable, Hashable {
    var bus: UInt8
    var address: UInt8
    /// Hub port numbers from the root hub down ("1-1.3" is [1, 3]); stable across replugs into
    /// the same socket, unlike `address`.
    var portPath: [UInt8]
    var vendorID: UInt16
    var productID: UInt16
    var deviceClass: UInt8
    var manufacturerIndex: UInt8
    var productIndex: UInt8
    var serialIndex: UInt8

    /// "1-1.3", the sysfs name of the port.
    var portName: String { "\(bus)-" + portPath.map(String.init).joined(separator: ".") }
}

/// The process's one libusb context and its event thread.
///
/// The event thread runs `libusb_handle_events_timeout_completed` while anything needs events
/// (an open device with transfers in flight, a hotplug registration) and stops when nothing
/// does. Transfer and hotplug callbacks run on it.
final class LibUSBContext: @unchecked Sendable {
    /// The shared context, or the error that made `libusb_init` fail.
    static let shared: Result<LibUSBContext, UWBDeviceError> = {
        var context: OpaquePointer?
        let status = libusb_init(&context)
        guard status == 0, let context else {
            return .failure(UWBDeviceError(
                .io, device: "", reason: "cannot initialise libusb: \(LibUSBStatus.name(status))",
                remedy: "Install libusb (sudo apt-get install libusb-1.0-0) and check that /dev/bus/usb exists."))
        }
        return .success(LibUSBContext(context))
    }()

    /// The shared context.
    /// - Throws: ``UWBDeviceError`` if libusb could not be initialised.
    static func get() throws(UWBDeviceError) -> LibUSBContext {
        switch shared {
        case .success(let context): return context
        case .failure(let error): throw error
        }
    }

    let pointer: OpaquePointer
    private struct EventState {
        var users = 0
        var running = false
    }
    private let events = Mutex(EventState())
    /// Hotplug boxes whose registration was cancelled: a callback may still be running on the
    /// event thread at that moment, so they are freed at the next registration instead.
    private let retiredHotplugBoxes = Mutex<[HotplugBox]>([])

    private init(_ pointer: OpaquePointer) {
        self.pointer = pointer
    }

    /// `true` if libusb delivers hotplug events on this platform.
    var hasHotplug: Bool { libusb_has_capability(UInt32(LIBUSB_CAP_HAS_HOTPLUG.rawValue)) != 0 }

    // MARK: Event thread

    /// Keeps the event thread running until the matching ``releaseEvents()``.
    func retainEvents() {
        let start = events.withLock { state -> Bool in
            state.users += 1
            if state.running { return false }
            state.running = true
            return true
        }
        guard start else { return }
        let thread = Thread { [self] in eventLoop() }
        thread.name = "nearby-libusb-events"
        thread.start()
    }

    /// Lets the event thread stop once nothing else needs it.
    func releaseEvents() {
        let wake = events.withLock { state -> Bool in
            state.users -= 1
            return state.users == 0
        }
        if wake { libusb_interrupt_event_handler(pointer) }
    }

    private func eventLoop() {
        while true {
            let stop = events.withLock { state -> Bool in
                if state.users > 0 { return false }
                state.running = false
                return true
            }
            if stop { return }
            var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
            _ = libusb_handle_events_timeout_completed(pointer, &timeout, nil)
        }
    }

    // MARK: Enumeration

    /// Lists the attached devices and runs `body` with the libusb device pointers, which stay
    /// valid during the call.
    func withDevices<T>(_ body: ([(record: USBDeviceRecord, device: OpaquePointer)]) throws(UWBDeviceError) -> T) throws(UWBDeviceError) -> T {
        var list: UnsafeMutablePointer<OpaquePointer?>?
        let count = libusb_get_device_list(pointer, &list)
        guard count >= 0, let list else {
            throw UWBDeviceError(.io, device: "", reason: "cannot list USB devices: \(LibUSBStatus.name(Int32(count)))")
        }
        defer { libusb_free_device_list(list, 1) }
        var devices: [(record: USBDeviceRecord, device: OpaquePointer)] = []
        for index in 0..<count {
            guard let device = list[index] else { continue }
            var descriptor = libusb_device_descriptor()
            guard libusb_get_device_descriptor(device, &descriptor) == 0 else { continue }
            var ports = [UInt8](repeating: 0, count: 8)
            let depth = libusb_get_port_numbers(device, &ports, Int32(ports.count))
            let record = USBDeviceRecord(
                bus: libusb_get_bus_number(device), address: libusb_get_device_address(device),
                portPath: depth > 0 ? Array(ports[0..<Int(depth)]) : [],
                vendorID: descriptor.idVendor, productID: descriptor.idProduct, deviceClass: descriptor.bDeviceClass,
                manufacturerIndex: descriptor.iManufacturer, productIndex: descriptor.iProduct,
                serialIndex: descriptor.iSerialNumber)
            devices.append((record, device))
        }
        return try body(devices)
    }

    /// The attached devices.
    func devices() throws(UWBDeviceError) -> [USBDeviceRecord] {
        try withDevices { list throws(UWBDeviceError) in list.map(\.record) }
    }

    // MARK: Hotplug

    /// Registers for arrivals of `vendorID:productID`; `onArrival` runs on the event thread.
    /// Returns `nil` if libusb has no hotplug support here. Call ``HotplugRegistration/cancel()``.
    func registerArrival(vendorID: UInt16, productID: UInt16, _ onArrival: @escaping @Sendable () -> Void) -> HotplugRegistration? {
        guard hasHotplug else { return nil }
        retiredHotplugBoxes.withLock { $0.removeAll() }
        let box = HotplugBox(onArrival)
        let userData = Unmanaged.passUnretained(box).toOpaque()
        var handle: libusb_hotplug_callback_handle = 0
        let status = libusb_hotplug_register_callback(
            pointer, Int32(LIBUSB_HOTPLUG_EVENT_DEVICE_ARRIVED.rawValue), 0,
            Int32(vendorID), Int32(productID), LIBUSB_HOTPLUG_MATCH_ANY,
            { _, _, _, userData in
                guard let userData else { return 0 }
                Unmanaged<HotplugBox>.fromOpaque(userData).takeUnretainedValue().fire()
                return 0
            },
            userData, &handle)
        guard status == 0 else { return nil }
        retainEvents()
        return HotplugRegistration(context: self, handle: handle, box: box)
    }

    fileprivate func retire(_ box: HotplugBox) {
        retiredHotplugBoxes.withLock { $0.append(box) }
    }
}

/// The Swift side of a hotplug callback registration (passed to C as `user_data`).
final class HotplugBox: Sendable {
    private let onArrival: Mutex<(@Sendable () -> Void)?>
    init(_ onArrival: @escaping @Sendable () -> Void) { self.onArrival = Mutex(onArrival) }
    func fire() { onArrival.withLock { $0 }?() }
    func disarm() { onArrival.withLock { $0 = nil } }
}

/// A live hotplug registration; ``cancel()`` deregisters it (idempotent).
final class HotplugRegistration: Sendable {
    private let context: LibUSBContext
    private let handle: libusb_hotplug_callback_handle
    private let box: Mutex<HotplugBox?>

    init(context: LibUSBContext, handle: libusb_hotplug_callback_handle, box: HotplugBox) {
        self.context = context
        self.handle = handle
        self.box = Mutex(box)
    }

    func cancel() {
        guard let box = box.withLock({ value -> HotplugBox? in
            defer { value = nil }
            return value
        }) else { return }
        box.disarm()
        libusb_hotplug_deregister_callback(context.pointer, handle)
        context.retire(box)
        context.releaseEvents()
    }

    deinit { cancel() }
}
