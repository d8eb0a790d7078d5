/// A change to the store, by this process or (seen on the next access, ``AccessoryStore/reload()``
/// or while watching) another one.
public enum AccessoryStoreEvent: Sendable, Hashable, CustomStringConvertible {
    /// An accessory was added.
    case added(AccessoryRecord)
    /// An accessory's record changed (renamed, seen, set up again, ...).
    case changed(AccessoryRecord, previous: AccessoryRecord)
    /// An accessory was forgotten.
    case removed(AccessoryRecord)

    /// The record after the change (the removed record for ``removed(_:)``).
    public var record: AccessoryRecord {
        switch self {
        case .added(let record), .changed(let record, _), .removed(let record): return record
        }
    }

    /// `"added 3fa2c1d0 Kitchen tag ..."`.
    public var description: String {
        switch self {
        case .added(let record): return "added \(record)"
        case .changed(let record, _): return "changed \(record)"
        case .removed(let record): return "removed \(record)"
        }
    }

    /// The events that turn `old` into `new` (matched by id): removals, then additions and changes in `new`'s order.
    static func difference(from old: [AccessoryRecord], to new: [AccessoryRecord]) -> [AccessoryStoreEvent] {
        let oldByID = Dictionary(old.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let newIDs = Set(new.map(\.id))
        var events: [AccessoryStoreEvent] = old.filter { !newIDs.contains($0.id) }.map { .removed($0) }
        for record in new {
            if let previous = oldByID[record.id] {
                if previous != record { events.append(.changed(record, previous: previous)) }
            } else {
                events.append(.added(record))
            }
        }
        return events
    }
}
