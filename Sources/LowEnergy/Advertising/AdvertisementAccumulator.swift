/// Turns advertising reports into ``Advertisement``s: joins the fragments of extended
/// advertising data, and merges each device's latest advertising data with its latest scan
/// response (the role of Bumble's `AdvertisementDataAccumulator`). Pure: no I/O, no clock.
///
/// - Extended advertising data split over several reports (data status "more to come") is held
///   per device, advertising set and event type until the report that completes it; a truncated
///   end delivers what arrived (``Outcome/truncated(_:)``).
/// - ``Advertisement/data`` is the latest advertising data followed by the latest scan response
///   data of the same device (a name often only comes in the scan response).
/// - Memory is bounded: at most ``maximumDevices`` devices (and as many pending fragment
///   chains) are remembered; beyond that the memory starts over (a scan of a crowded place
///   forgets, it never grows without bound).
public struct AdvertisementAccumulator: Sendable {
    /// What one report produced.
    public enum Outcome: Sendable, Hashable {
        /// A fragment was stored; the advertisement comes with the report that completes it.
        case pending
        /// A complete advertisement.
        case advertisement(Advertisement)
        /// The controller truncated the data: the advertisement has what arrived.
        case truncated(Advertisement)
    }

    private struct DeviceKey: Hashable {
        let address: BluetoothAddress
        let type: BluetoothAddressType
    }

    private struct FragmentKey: Hashable {
        let device: DeviceKey
        let sid: UInt8?
        let eventType: UInt16
    }

    private struct Known {
        var advertising: AdvertisingData?
        var scanResponse: AdvertisingData?
    }

    /// How many devices (and pending fragment chains) are remembered at most.
    public let maximumDevices: Int
    /// The longest advertising data an extended advertising set carries (Core Vol 4 Part E
    /// 7.8.57: 1650 bytes): a longer fragment chain is delivered as truncated at this length.
    public static let maximumDataLength = 1650
    private var known: [DeviceKey: Known] = [:]
    private var fragments: [FragmentKey: [UInt8]] = [:]

    /// Creates an empty accumulator remembering at most `maximumDevices` devices (4096 by default).
    public init(maximumDevices: Int = 4096) {
        self.maximumDevices = max(1, maximumDevices)
    }

    /// Number of devices remembered.
    public var deviceCount: Int { known.count }

    /// Number of incomplete fragment chains held.
    public var pendingFragmentCount: Int { fragments.count }

    /// Forgets everything (a new scan starts).
    public mutating func reset() {
        known.removeAll()
        fragments.removeAll()
    }

    /// Adds one report.
    /// - Parameters:
    ///   - report: the controller's advertising report (legacy or extended).
    ///   - timestamp: when it arrived (copied into the advertisement).
    /// - Returns: ``Outcome/pending`` for a fragment with more to come, else the advertisement.
    public mutating func add(_ report: AdvertisingReport, at timestamp: ContinuousClock.Instant) -> Outcome {
        let device = DeviceKey(address: report.address, type: report.addressType)
        let key = FragmentKey(device: device, sid: report.advertisingSID, eventType: report.eventType.withoutDataStatus.rawValue)
        var bytes = report.data
        var truncated = false
        switch report.eventType.dataStatus {
        case .incompleteMoreToCome:
            if fragments[key] == nil && fragments.count >= maximumDevices { fragments.removeAll() }
            let held = fragments[key]?.count ?? 0
            guard held + bytes.count <= Self.maximumDataLength else {
                // A chain longer than any advertising set can be (a controller that never says
                // "complete"): delivered as truncated, so it cannot grow without bound.
                bytes = Array(((fragments.removeValue(forKey: key) ?? []) + bytes).prefix(Self.maximumDataLength))
                truncated = true
                break
            }
            fragments[key, default: []].append(contentsOf: bytes)
            return .pending
        case .incompleteTruncated:
            bytes = (fragments.removeValue(forKey: key) ?? []) + bytes
            truncated = true
        case .complete:
            if let prefix = fragments.removeValue(forKey: key) { bytes = prefix + bytes }
        }
        let parsed = AdvertisingData(parsing: bytes)
        var entry = known[device] ?? Known()
        if report.eventType.isScanResponse {
            entry.scanResponse = parsed
        } else {
            entry.advertising = parsed
        }
        if known[device] == nil && known.count >= maximumDevices { known.removeAll() }
        known[device] = entry
        let merged = (entry.advertising ?? AdvertisingData()).merging(entry.scanResponse ?? AdvertisingData())
        let advertisement = Advertisement(
            address: report.address, addressType: report.addressType, rssi: report.rssi, eventType: report.eventType,
            advertisingSID: report.advertisingSID, reportData: parsed, data: merged,
            txPower: report.txPower ?? merged.txPowerLevel, timestamp: timestamp)
        return truncated ? .truncated(advertisement) : .advertisement(advertisement)
    }
}
