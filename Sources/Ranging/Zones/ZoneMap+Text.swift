extension ZoneMap {
    /// Zone boundaries as people write them: `1.5,3` -> `[1.5, 3]`, positive distances in
    /// metres separated by commas (spaces around a value are allowed); the order is checked by
    /// ``init(boundaries:hysteresis:minimumDwell:features:)``, not here.
    /// - Throws: ``ZoneBoundaryTextError`` naming the first field that is not a distance.
    public static func boundaries(parsing text: String) throws(ZoneBoundaryTextError) -> [Double] {
        var boundaries: [Double] = []
        for field in text.split(separator: ",", omittingEmptySubsequences: false) {
            var value = field
            while let first = value.first, first == " " || first == "\t" { value = value.dropFirst() }
            while let last = value.last, last == " " || last == "\t" { value = value.dropLast() }
            guard let number = Double(value), number.isFinite, number > 0 else { throw ZoneBoundaryTextError(field: String(value)) }
            boundaries.append(number)
        }
        return boundaries
    }
}

/// A zone boundary that is not a positive distance in metres (``ZoneMap/boundaries(parsing:)``).
public struct ZoneBoundaryTextError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The field, without surrounding spaces.
    public var field: String

    /// An error about `field`.
    public init(field: String) {
        self.field = field
    }

    /// `'x' is not a distance in metres; write increasing boundaries like 1.5,3`.
    public var description: String {
        "'\(field)' is not a distance in metres; write increasing boundaries like 1.5,3"
    }
}
