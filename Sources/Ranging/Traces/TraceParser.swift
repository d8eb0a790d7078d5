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
    /// Parses one line given as its UTF-8 bytes (without the line terminator): the same records
    /// and the same errors as ``parse(line:number:)``, without building strings for the common
    /// row (plain ASCII decimals, at most 16 columns); anything else takes the string path.
    public mutating func parse(bytes: UnsafeRawBufferPointer, number: Int) throws(TraceError) -> TraceRecord? {
        if let columns, let record = fastRow(bytes, columns: columns) {
            lastLine = number
            lastTime = record.sample.timestamp
            recordCount += 1
            return record
        }
        return try parse(line: String(decoding: bytes, as: UTF8.self), number: number)
    }

    /// A data row of plain ASCII decimals that parses without an error, or `nil` (the string
    /// path then parses it, and reports what is wrong).
    private func fastRow(_ bytes: UnsafeRawBufferPointer, columns: Columns) -> TraceRecord? {
        var count = bytes.count
        if count > 0, bytes[count - 1] == UInt8(ascii: "\r") { count -= 1 }
        guard count > 0, columns.count <= 16 else { return nil }
        // Field boundaries, inline (no allocation).
        var bounds: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var fields = 0
        let ok: Bool = withUnsafeMutableBytes(of: &bounds) { raw in
            let starts = raw.bindMemory(to: Int.self)
            starts[0] = 0
            for index in 0..<count {
                let byte = bytes[index]
                if byte >= 0x80 || byte == UInt8(ascii: "#") { return false }
                if byte == UInt8(ascii: ",") {
                    fields += 1
                    if fields >= 16 { return false }
                    starts[fields] = index + 1
                }
            }
            fields += 1
            starts[fields] = count + 1
            return true
        }
        guard ok, fields == columns.count else { return nil }
        func field(_ index: Int) -> UnsafeRawBufferPointer {
            withUnsafeBytes(of: bounds) { raw in
                let starts = raw.bindMemory(to: Int.self)
                var start = starts[index]
                var end = starts[index + 1] - 1
                while start < end, bytes[start] == UInt8(ascii: " ") || bytes[start] == UInt8(ascii: "\t") { start += 1 }
                while end > start, bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == UInt8(ascii: "\t") { end -= 1 }
                return UnsafeRawBufferPointer(rebasing: bytes[start..<end])
            }
        }
        // A number: `nil` for an empty field, `.none` inside for one the fast path does not take.
        func number(_ index: Int?) -> Double?? {
            guard let index else { return .some(nil) }
            let text = field(index)
            if text.isEmpty { return .some(nil) }
            guard let value = Self.decimal(text) else { return nil }
            return .some(value)
        }
        guard columns.time != nil, let time = number(columns.time), let time else { return nil }
        if let lastTime, time < lastTime { return nil }
        guard let distance = number(columns.distance), let azimuth = number(columns.azimuth),
            let elevation = number(columns.elevation), let truth = number(columns.truth), let rssi = number(columns.rssi)
        else { return nil }
        if let azimuth, !(-180...180).contains(azimuth) { return nil }
        if let elevation, !(-90...90).contains(elevation) { return nil }
        if let truth, truth < 0 { return nil }
        var fom: UInt8?
        if let index = columns.fom {
            let text = field(index)
            if !text.isEmpty {
                guard let value = Self.integer(text), value <= 100 else { return nil }
                fom = UInt8(value)
            }
        }
        var nlos: Bool?
        if let index = columns.nlos {
            let text = field(index)
            if !text.isEmpty {
                guard text.count == 1 else { return nil }
                switch text[0] {
                case UInt8(ascii: "0"): nlos = false
                case UInt8(ascii: "1"): nlos = true
                default: return nil
                }
            }
        }
        var status: UInt8 = RangeSample.statusOK
        if let index = columns.status {
            let text = field(index)
            if !text.isEmpty {
                guard let value = Self.integer(text), value <= 255 else { return nil }
                status = UInt8(value)
            }
        }
        return TraceRecord(
            sample: RangeSample(
                timestamp: time, distance: distance, azimuth: azimuth, elevation: elevation, figureOfMerit: fom,
                isNonLineOfSight: nlos, rssi: rssi, status: status),
            truth: truth)
    }

    /// Powers of ten that are exact doubles.
    private static let exactPowers: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    /// `[-]digits[.digits]` with at most 15 digits in all, as `Double(String)` reads it (an
    /// integer below 2^53 divided by an exact power of ten is correctly rounded: Clinger's fast
    /// path); `nil` for anything else.
    private static func decimal(_ text: UnsafeRawBufferPointer) -> Double? {
        var index = 0
        var negative = false
        if text[0] == UInt8(ascii: "-") {
            negative = true
            index = 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var fraction = 0
        var point = false
        while index < text.count {
            let byte = text[index]
            if byte == UInt8(ascii: ".") {
                if point { return nil }
                point = true
            } else if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                mantissa = mantissa * 10 + UInt64(byte - UInt8(ascii: "0"))
                digits += 1
                if point { fraction += 1 }
                if digits > 15 { return nil }
            } else {
                return nil
            }
            index += 1
        }
        guard digits > 0 else { return nil }
        let value = Double(mantissa) / exactPowers[fraction]
        return negative ? -value : value
    }

    /// Decimal digits only (at most 9), as `Int(String)` reads them; `nil` for anything else.
    private static func integer(_ text: UnsafeRawBufferPointer) -> Int? {
        guard !text.isEmpty, text.count <= 9 else { return nil }
        var value = 0
        for byte in text {
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

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
