public import UCI

extension UCIClient {
    /// Opens the client (reset, device info, capabilities), returns what the UWBS is and can
    /// do as fields (``UCIDeviceReport/fields(device:info:capabilities:capabilitiesError:)``),
    /// and closes it without touching sessions. What `nearby uwb info` prints.
    /// - Parameter device: how the device was named (`usb:1915:520f`), the first field.
    /// - Throws: ``UCIClientError`` from ``open()``; the client is closed then too.
    public func report(device: String) async throws(UCIClientError) -> [UCIField] {
        let info: UCIDeviceInfo
        do {
            info = try await open()
        } catch {
            await close(deinitializingSessions: false)
            throw error
        }
        let fields = UCIDeviceReport.fields(device: device, info: info, capabilities: capabilities, capabilitiesError: capabilitiesError)
        await close(deinitializingSessions: false)
        return fields
    }
}

/// A UWBS described as fields: readable with `UCIField.text`, JSON with `UCIField.json`.
public enum UCIDeviceReport {
    /// `device`, the versions and vendor bytes of `info`, and `capabilities` (decoded, see
    /// `UCICapability.field(version:)`) or why they are missing (`not reported: ...`,
    /// `not read`).
    public static func fields(device: String, info: UCIDeviceInfo, capabilities: UCICapabilities?, capabilitiesError: UCIClientError?) -> [UCIField] {
        var fields = [UCIField("device", .text(device))] + info.fields
        if let capabilities {
            fields.append(UCIField("capabilities", .group(capabilities.fields)))
        } else {
            let reason = capabilitiesError.map { "not reported: \($0.status?.description ?? $0.reason)" } ?? "not read"
            fields.append(UCIField("capabilities", .text(reason)))
        }
        return fields
    }
}
