/// Parses a CSV trace (`specs/trace-format.md`) incrementally, one line at a time: feed every
/// line of a file in order with ``parse(line:number:)``, then call ``finish()``.
///
/// Pure and streaming: the parser keeps only the header's column positions and the previous
/// timestamp, so memory stays constant whatever the file size. Reading the file is the caller's
/// job, e.g. with `NearbySupport.LineReader`:
///
/// ```swift
/// var parser = TraceParser(source: path)
/// try LineReader.forEachLine(in: path) { line in
///     if let record = try parser.parse(line: line.text, number: line.number) { records.append(record) }
/// }
/// try parser.finish()
/// ```
///
/// Rules: blank lines and lines starting with `#` are skipped; the first other line is the
/// header; columns are found by name, in any order; unknown columns are ignored; `t_s` and
/// `distance_m` are required, the other known columns optional; an empty field is unknown;
/// timestamps must not decrease. Any bad row throws ``TraceError`` with the file name and line.
public struct TraceParser: Sendable {
    struct Columns: Sendable {
        var count = 0
        var time: Int?
        var distance: Int?
        var azimuth: Int?
        var elevation: Int?
        var fom: Int?
        var nlos: Int?
        var status: Int?
        var truth: Int?
        var rssi: Int?
    }

    /// The file name used in error messages.
    public let source: String
    private var columns: Columns?
    private var lastTime: Double?
    private var lastLine = 0
    /// Number of records parsed so far.
    public private(set) var recordCount = 0

    /// Creates a parser; `source` (the file name) is used in error messages.
    public init(source: String) {
        self.source = source
    }

    /// Parses one line.
    /// - Parameters:
    ///   - line: the line's text, without its line terminator (a trailing `\r` is ignored).
    ///   - number: its 1-based line number in the file.
    /// - Returns: the record of a data row, `nil` for the header, blank and comment lines.
    /// - Throws: ``TraceError`` for a bad header or row.
    public mutating func parse(line: some StringProtocol, number: Int) throws(TraceError) -> TraceRecord? {
        lastLine = number
        var text = Substring(line)
        if text.hasSuffix("\r") { text.removeLast() }
        if columns == nil, text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let trimmed = Self.trim(text)
        if trimmed.isEmpty || trimmed.hasPrefix("#") { return nil }
        let fields = text.split(separator: ",", omittingEmptySubsequences: false).map(Self.trim)
        guard let columns else {
            self.columns = try parseHeader(fields, line: number)
            return nil
        }
        guard fields.count == columns.count else {
            throw TraceError(source: source, line: number, reason: .fieldCount(expected: columns.count, found: fields.count))
        }
        let record = try parseRow(fields, columns: columns, line: number)
        recordCount += 1
        return record
    }

    /// Checks the end of the file.
    /// - Throws: ``TraceError`` with reason ``TraceError/Reason/missingHeader`` if no header
    ///   was seen (an empty file).
    public func finish() throws(TraceError) {
        if columns == nil {
            throw TraceError(source: source, line: max(lastLine, 1), reason: .missingHeader)
        }
    }

    private func parseHeader(_ fields: [Substring], line: Int) throws(TraceError) -> Columns {
        var columns = Columns()
        columns.count = fields.count
        func assign(_ slot: inout Int?, _ name: Substring, _ index: Int) throws(TraceError) {
            if slot != nil { throw TraceError(source: source, line: line, reason: .duplicateColumn(String(name))) }
            slot = index
        }
        for (index, name) in fields.enumerated() {
            switch name {
            case "t_s": try assign(&columns.time, name, index)
            case "distance_m": try assign(&columns.distance, name, index)
            case "azimuth_deg": try assign(&columns.azimuth, name, index)
            case "elevation_deg": try assign(&columns.elevation, name, index)
            case "fom": try assign(&columns.fom, name, index)
            case "nlos": try assign(&columns.nlos, name, index)
            case "status": try assign(&columns.status, name, index)
            case "truth_m": try assign(&columns.truth, name, index)
            case "rssi_dbm": try assign(&columns.rssi, name, index)
            default: continue
            }
        }
        guard columns.time != nil else { throw TraceError(source: source, line: line, reason: .missingColumn("t_s")) }
        guard columns.distance != nil else {
            throw TraceError(source: source, line: line, reason: .missingColumn("distance_m"))
        }
        return columns
    }

    private mutating func parseRow(_ fields: [Substring], columns: Columns, line: Int) throws(TraceError) -> TraceRecord {
        func invalid(_ column: String, _ value: Substring, _ expected: String) -> TraceError {
            TraceError(source: source, line: line, reason: .invalidValue(column: column, value: String(value), expected: expected))
        }
        func number(_ index: Int?, _ column: String, range: ClosedRange<Double>? = nil, expected: String) throws(TraceError) -> Double? {
            guard let index else { return nil }
            let field = fields[index]
            if field.isEmpty { return nil }
            guard let value = Double(field), value.isFinite else { throw invalid(column, field, expected) }
            if let range, !range.contains(value) { throw invalid(column, field, expected) }
            return value
        }

        guard let time = try number(columns.time, "t_s", expected: "a time in seconds") else {
            throw TraceError(source: source, line: line, reason: .missingTimestamp)
        }
        if let lastTime, time < lastTime {
            throw TraceError(source: source, line: line, reason: .timeWentBackwards(previous: lastTime, found: time))
        }
        let distance = try number(columns.distance, "distance_m", expected: "a distance in metres")
        let azimuth = try number(columns.azimuth, "azimuth_deg", range: -180...180, expected: "an azimuth in degrees, -180 ... 180")
        let elevation = try number(columns.elevation, "elevation_deg", range: -90...90, expected: "an elevation in degrees, -90 ... 90")
        let truth = try number(columns.truth, "truth_m", range: 0...Double.greatestFiniteMagnitude, expected: "a distance ≥ 0 in metres")
        let rssi = try number(columns.rssi, "rssi_dbm", expected: "a signal strength in dBm")

        var fom: UInt8?
        if let index = columns.fom, !fields[index].isEmpty {
            guard let value = Int(fields[index]), (0...100).contains(value) else {
                throw invalid("fom", fields[index], "an integer figure of merit 0 ... 100")
            }
            fom = UInt8(value)
        }
        var nlos: Bool?
        if let index = columns.nlos, !fields[index].isEmpty {
            switch fields[index] {
            case "0", "false": nlos = false
            case "1", "true": nlos = true
            default: throw invalid("nlos", fields[index], "0 (line of sight) or 1 (non-line-of-sight)")
            }
        }
        var status: UInt8 = RangeSample.statusOK
        if let index = columns.status, !fields[index].isEmpty {
            let field = fields[index]
            let parsed: UInt8? =
                field.hasPrefix("0x") || field.hasPrefix("0X") ? UInt8(field.dropFirst(2), radix: 16) : UInt8(field)
            guard let parsed else { throw invalid("status", field, "a UCI status 0 ... 255 (decimal or 0x hex)") }
            status = parsed
        }
        lastTime = time
        return TraceRecord(
            sample: RangeSample(
                timestamp: time, distance: distance, azimuth: azimuth, elevation: elevation, figureOfMerit: fom,
                isNonLineOfSight: nlos, rssi: rssi, status: status),
            truth: truth)
    }

    private static func trim(_ s: Substring) -> Substring {
        var s = s
        while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" { s.removeLast() }
        return s
    }
}
