import CLibUSB

/// libusb return codes and transfer statuses, turned into names and ``UWBDeviceError``s.
enum LibUSBStatus {
    /// The libusb name of a return code, e.g. "LIBUSB_ERROR_ACCESS".
    static func name(_ code: Int32) -> String {
        String(cString: libusb_error_name(code))
    }

    /// The error for a failed libusb call.
    /// - Parameters:
    ///   - code: the negative libusb return code.
    ///   - operation: what was being done, e.g. "claim interface 1".
    ///   - kernelDriver: the driver that normally binds the device (named in busy errors).
    static func error(_ code: Int32, device: String, operation: String, kernelDriver: String? = nil) -> UWBDeviceError {
        let what = "cannot \(operation)"
        switch code {
        case LIBUSB_ERROR_ACCESS.rawValue:
            return UWBDeviceError(
                .permissionDenied, device: device,
                reason: "\(what): permission denied on the USB device node (LIBUSB_ERROR_ACCESS)",
                remedy: UWBDeviceError.permissionRemedy)
        case LIBUSB_ERROR_BUSY.rawValue:
            var remedy = UWBDeviceError.busyRemedy
            if let kernelDriver {
                remedy += "\nIf the kernel's \(kernelDriver) driver still holds it, nearby could not detach it; run as a user allowed to (see the udev rule)."
            }
            return UWBDeviceError(.busy, device: device, reason: "\(what): the device is busy (LIBUSB_ERROR_BUSY)", remedy: remedy)
        case LIBUSB_ERROR_NO_DEVICE.rawValue:
            return UWBDeviceError(
                .disconnected, device: device, reason: "\(what): the device is gone (unplugged or reset)",
                remedy: "Plug the board back in; nearby reopens it when it is back.")
        case LIBUSB_ERROR_NOT_FOUND.rawValue:
            return UWBDeviceError(.notFound, device: device, reason: "\(what): not found (LIBUSB_ERROR_NOT_FOUND)",
                                  remedy: "`nearby uwb list` shows the attached dev kits.")
        case LIBUSB_ERROR_TIMEOUT.rawValue:
            return UWBDeviceError(.timeout, device: device, reason: "\(what): the device did not answer in time")
        case LIBUSB_ERROR_NOT_SUPPORTED.rawValue:
            return UWBDeviceError(.unsupported, device: device, reason: "\(what): not supported on this platform (LIBUSB_ERROR_NOT_SUPPORTED)")
        default:
            return UWBDeviceError(.io, device: device, reason: "\(what): \(name(code))")
        }
    }

    /// The libusb name of a transfer status, e.g. "LIBUSB_TRANSFER_STALL".
    static func name(_ status: libusb_transfer_status) -> String {
        switch status {
        case LIBUSB_TRANSFER_COMPLETED: "LIBUSB_TRANSFER_COMPLETED"
        case LIBUSB_TRANSFER_ERROR: "LIBUSB_TRANSFER_ERROR"
        case LIBUSB_TRANSFER_TIMED_OUT: "LIBUSB_TRANSFER_TIMED_OUT"
        case LIBUSB_TRANSFER_CANCELLED: "LIBUSB_TRANSFER_CANCELLED"
        case LIBUSB_TRANSFER_STALL: "LIBUSB_TRANSFER_STALL"
        case LIBUSB_TRANSFER_NO_DEVICE: "LIBUSB_TRANSFER_NO_DEVICE"
        case LIBUSB_TRANSFER_OVERFLOW: "LIBUSB_TRANSFER_OVERFLOW"
        default: "transfer status \(status.rawValue)"
        }
    }
}
