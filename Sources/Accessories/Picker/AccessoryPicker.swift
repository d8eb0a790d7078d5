public import LowEnergy

/// The picker's model: the accessories found so far, the highlighted row, and how to pick one.
/// Pure (no I/O, no clock of its own): feed it advertisements with ``ingest(_:)`` and the time
/// with ``expire(now:)``, render ``candidates``, move with ``move(_:)``, pick with ``select(_:)``.
///
/// - De-duplication: one candidate per address and address type, updated in place (name,
///   RSSI, last seen, matched display item).
/// - Order: the order devices were first heard. Stable on purpose: a list re-sorted by RSSI
///   would move the row under the user's finger between reading a number and typing it.
/// - Ageing: a device not heard for ``staleAfter`` is removed by ``expire(now:)``.
/// - RSSI: the latest value and an exponential moving average (``smoothing``), which is what
///   is shown (single reports jitter by several dB).
public struct AccessoryPicker: Sendable {
    /// The display items offered (tried in order for each advertisement).
    public let items: [DisplayItem]
    /// How long a device stays listed without a new report.
    public let staleAfter: Duration
    /// Weight of a new RSSI in the moving average (0 < smoothing <= 1; 1: latest only).
    public let smoothing: Double
    /// Offer only devices that accept connections (setup needs a connection).
    public let connectableOnly: Bool

    /// The candidates, in the order they were first heard.
    public private(set) var candidates: [AccessoryCandidate] = []
    /// The highlighted row (index into ``candidates``), `nil` while the list is empty.
    public private(set) var highlightedIndex: Int?

    /// What ``ingest(_:)`` did.
    public enum Change: Sendable, Hashable {
        /// A new candidate at this index.
        case added(index: Int)
        /// The candidate at this index was updated.
        case updated(index: Int)
    }

    /// A highlight movement (arrow keys, Home/End).
    public enum Move: Sendable, Hashable {
        case up, down, first, last
    }

    /// Creates an empty picker.
    /// - Parameters:
    ///   - items: the display items; an advertisement matching none is ignored.
    ///   - staleAfter: devices not heard for this long are dropped by ``expire(now:)`` (default 10 s;
    ///     advertisers send every 20 ms to 10.24 s, most accessories at most every 1-2 s).
    ///   - smoothing: weight of a new RSSI report (default 0.3).
    ///   - connectableOnly: ignore non-connectable advertisements (default `false`).
    public init(items: [DisplayItem], staleAfter: Duration = .seconds(10), smoothing: Double = 0.3,
                connectableOnly: Bool = false) {
        self.items = items
        self.staleAfter = staleAfter
        self.smoothing = min(max(smoothing, 0.01), 1)
        self.connectableOnly = connectableOnly
    }

    /// The highlighted candidate.
    public var highlighted: AccessoryCandidate? { highlightedIndex.map { candidates[$0] } }

    /// Adds or updates the advertiser of `advertisement` if it matches a display item.
    /// - Returns: what changed, or `nil` if the advertisement matches no item (or is not
    ///   connectable with ``connectableOnly``).
    @discardableResult
    public mutating func ingest(_ advertisement: Advertisement) -> Change? {
        if connectableOnly && !advertisement.isConnectable { return nil }
        guard let item = DisplayItem.firstMatch(in: items, for: advertisement) else { return nil }
        let key = AccessoryCandidate.Key(address: advertisement.address, addressType: advertisement.addressType)
        if let index = candidates.firstIndex(where: { $0.id == key }) {
            var candidate = candidates[index]
            candidate.displayItem = item
            if let name = advertisement.name { candidate.advertisedName = name }
            if let rssi = advertisement.rssi {
                candidate.rssi = rssi
                candidate.smoothedRSSI = candidate.smoothedRSSI.map { $0 + smoothing * (Double(rssi) - $0) } ?? Double(rssi)
            }
            candidate.isConnectable = advertisement.isConnectable
            candidate.lastSeen = max(candidate.lastSeen, advertisement.timestamp)
            candidate.reports += 1
            candidate.advertisement = advertisement
            candidates[index] = candidate
            return .updated(index: index)
        }
        candidates.append(AccessoryCandidate(
            id: key, displayItem: item, advertisedName: advertisement.name, rssi: advertisement.rssi,
            smoothedRSSI: advertisement.rssi.map(Double.init), isConnectable: advertisement.isConnectable,
            firstSeen: advertisement.timestamp, lastSeen: advertisement.timestamp, reports: 1,
            advertisement: advertisement))
        if highlightedIndex == nil { highlightedIndex = 0 }
        return .added(index: candidates.count - 1)
    }

    /// Removes candidates not heard for ``staleAfter`` before `now`. The highlight stays on the
    /// same candidate if it survives, else moves to the next row (or the last).
    /// - Returns: the removed candidates.
    @discardableResult
    public mutating func expire(now: ContinuousClock.Instant) -> [AccessoryCandidate] {
        let highlightedKey = highlighted?.id
        var removed: [AccessoryCandidate] = []
        var removedBeforeHighlight = 0
        var kept: [AccessoryCandidate] = []
        for (index, candidate) in candidates.enumerated() {
            if now - candidate.lastSeen > staleAfter {
                removed.append(candidate)
                if let highlightedIndex, index < highlightedIndex { removedBeforeHighlight += 1 }
            } else {
                kept.append(candidate)
            }
        }
        guard !removed.isEmpty else { return [] }
        candidates = kept
        if kept.isEmpty {
            highlightedIndex = nil
        } else if let highlightedKey, let index = kept.firstIndex(where: { $0.id == highlightedKey }) {
            highlightedIndex = index
        } else if let old = highlightedIndex {
            highlightedIndex = min(old - removedBeforeHighlight, kept.count - 1)
        } else {
            highlightedIndex = 0
        }
        return removed
    }

    /// Moves the highlight; stops at the ends (no wrap-around).
    public mutating func move(_ move: Move) {
        guard !candidates.isEmpty else { return }
        let current = highlightedIndex ?? 0
        switch move {
        case .up: highlightedIndex = max(current - 1, 0)
        case .down: highlightedIndex = min(current + 1, candidates.count - 1)
        case .first: highlightedIndex = 0
        case .last: highlightedIndex = candidates.count - 1
        }
    }

    /// Highlights the candidate at 1-based position `number`.
    /// - Returns: `false` if there is no such row.
    @discardableResult
    public mutating func highlight(number: Int) -> Bool {
        guard candidates.indices.contains(number - 1) else { return false }
        highlightedIndex = number - 1
        return true
    }

    /// The candidate `choice` designates.
    /// - ``PickerChoice/first``: the first row. ``PickerChoice/number(_:)``: that 1-based row.
    /// - ``PickerChoice/address(_:)``: the candidate with that address.
    /// - ``PickerChoice/name(_:)``: the candidates whose advertised name equals the text
    ///   ignoring case; if none, those whose display name does. Must be exactly one.
    /// - Throws: ``PickerError/noMatch(choice:available:)`` or ``PickerError/ambiguous(choice:matches:)``.
    public func select(_ choice: PickerChoice) throws(PickerError) -> AccessoryCandidate {
        let matches: [AccessoryCandidate]
        switch choice {
        case .first:
            matches = Array(candidates.prefix(1))
        case .number(let number):
            matches = candidates.indices.contains(number - 1) ? [candidates[number - 1]] : []
        case .address(let address):
            matches = candidates.filter { $0.address == address }
        case .name(let name):
            let wanted = name.lowercased()
            let byAdvertised = candidates.filter { $0.advertisedName?.lowercased() == wanted }
            matches = byAdvertised.isEmpty ? candidates.filter { $0.displayName.lowercased() == wanted } : byAdvertised
        }
        if matches.count == 1 { return matches[0] }
        if matches.isEmpty {
            throw .noMatch(choice: choice, available: candidates.enumerated().map { "\($0.offset + 1). \($0.element)" })
        }
        throw .ambiguous(choice: choice, matches: matches.map(\.description))
    }
}
