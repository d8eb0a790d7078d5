/// A host of the house: where its kit is and which way the kit faces.
public struct HouseHost: Sendable, Hashable {
    /// The name it publishes as (`[mqtt] host_name` / `--mqtt-host`).
    public var name: String
    /// Its kit on the floor plan, metres.
    public var position: PlanePoint
    /// The kit's antenna height above its floor, metres.
    public var height: Double
    /// The kit's heading: the bearing its boresight (azimuth 0) points to, degrees clockwise
    /// from north (+y); `nil` when unknown (its azimuths are then not used).
    public var heading: Double?
    /// The floor it stands on.
    public var floor: Int

    /// The default antenna height: a kit on a desk, metres.
    public static let defaultHeight = 0.8

    /// A host.
    public init(name: String, position: PlanePoint, height: Double = HouseHost.defaultHeight, heading: Double? = nil, floor: Int = 0) {
        self.name = name
        self.position = position
        self.height = height
        self.heading = heading
        self.floor = floor
    }
}

/// A room: a polygon on a floor.
public struct HouseRoom: Sendable, Hashable {
    /// Its name (the device tracker's state when the accessory is in it).
    public var name: String
    /// Its floor.
    public var floor: Int
    /// Its outline.
    public var polygon: RoomPolygon

    /// A room.
    public init(name: String, floor: Int = 0, polygon: RoomPolygon) {
        self.name = name
        self.floor = floor
        self.polygon = polygon
    }
}

/// The house: hosts and rooms (`[[house.host]]`, `[[house.room]]`; specs/house.md).
public struct HousePlan: Sendable, Hashable {
    /// The hosts, in file order.
    public let hosts: [HouseHost]
    /// The rooms, in file order.
    public let rooms: [HouseRoom]

    /// A checked plan.
    /// - Throws: ``HousePlanError`` naming the host or room: a duplicate or empty name, a
    ///   position that is not finite, a polygon that is not a simple polygon with area, rooms of
    ///   one floor that overlap.
    public init(hosts: [HouseHost], rooms: [HouseRoom]) throws(HousePlanError) {
        var names = Set<String>()
        for (index, host) in hosts.enumerated() {
            guard !host.name.isEmpty else { throw HousePlanError("host \(index + 1) has no name") }
            guard names.insert(host.name).inserted else { throw HousePlanError("two hosts are named '\(host.name)'") }
            guard host.position.x.isFinite, host.position.y.isFinite, host.height.isFinite, host.heading?.isFinite ?? true else {
                throw HousePlanError("host '\(host.name)': x, y, z and heading_deg must be finite numbers")
            }
        }
        names = []
        for (index, room) in rooms.enumerated() {
            guard !room.name.isEmpty else { throw HousePlanError("room \(index + 1) has no name") }
            guard names.insert(room.name).inserted else { throw HousePlanError("two rooms are named '\(room.name)'") }
            if let problem = room.polygon.problem { throw HousePlanError("room '\(room.name)': \(problem)") }
        }
        for (i, a) in rooms.enumerated() {
            for b in rooms[(i + 1)...] where a.floor == b.floor && Self.overlap(a.polygon, b.polygon) {
                throw HousePlanError("rooms '\(a.name)' and '\(b.name)' overlap on floor \(a.floor); rooms may share walls but not floor area")
            }
        }
        self.hosts = hosts
        self.rooms = rooms
    }

    /// A plan with no hosts and no rooms.
    public static let empty = try! HousePlan(hosts: [], rooms: [])

    /// `true` without hosts.
    public var isEmpty: Bool { hosts.isEmpty }

    /// The host called `name`.
    public func host(named name: String) -> HouseHost? { hosts.first { $0.name == name } }

    /// The rooms of `floor`.
    public func rooms(onFloor floor: Int) -> [HouseRoom] { rooms.filter { $0.floor == floor } }

    /// The room of `floor` containing `point`, `nil` if none.
    public func room(containing point: PlanePoint, floor: Int) -> HouseRoom? {
        rooms.first { $0.floor == floor && $0.polygon.contains(point) }
    }

    /// The room called `name`.
    public func room(named name: String) -> HouseRoom? { rooms.first { $0.name == name } }

    /// Two polygons share area (not just an edge): a vertex or the centroid of one inside the
    /// other, or a point of a 40 × 40 grid over the common bounding box more than 1 cm inside both.
    private static func overlap(_ a: RoomPolygon, _ b: RoomPolygon) -> Bool {
        let tolerance = 0.01
        if a.vertices.contains(where: { b.depth($0) > tolerance }) || b.vertices.contains(where: { a.depth($0) > tolerance }) { return true }
        if b.depth(a.centroid) > tolerance || a.depth(b.centroid) > tolerance { return true }
        let minX = max(a.vertices.map(\.x).min() ?? 0, b.vertices.map(\.x).min() ?? 0)
        let maxX = min(a.vertices.map(\.x).max() ?? 0, b.vertices.map(\.x).max() ?? 0)
        let minY = max(a.vertices.map(\.y).min() ?? 0, b.vertices.map(\.y).min() ?? 0)
        let maxY = min(a.vertices.map(\.y).max() ?? 0, b.vertices.map(\.y).max() ?? 0)
        guard maxX - minX > tolerance, maxY - minY > tolerance else { return false }
        for i in 0...40 {
            for j in 0...40 {
                let p = PlanePoint(x: minX + (maxX - minX) * Double(i) / 40, y: minY + (maxY - minY) * Double(j) / 40)
                if a.depth(p) > tolerance && b.depth(p) > tolerance { return true }
            }
        }
        return false
    }
}

/// A house description that cannot work: what and where.
public struct HousePlanError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, naming the host or room.
    public var description: String

    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
