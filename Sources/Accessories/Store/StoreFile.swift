import Foundation

/// The store file's schema (specs/accessories.md §4):
/// `{"version": 1, "accessories": [record, ...]}`, records with snake_case keys, dates ISO 8601
/// UTC. Pretty-printed with sorted keys so diffs and hand edits stay readable.
struct StoreFile: Codable {
    /// The schema version this code reads and writes.
    static let currentVersion = 1

    var version: Int
    var accessories: [AccessoryRecord]

    private struct VersionOnly: Decodable {
        var version: Int
    }

    /// Why bytes are not a store.
    enum DecodeFailure: Error {
        case corrupt(String)
        case newerVersion(Int)
    }

    static func decode(_ bytes: [UInt8]) throws(DecodeFailure) -> [AccessoryRecord] {
        let data = Data(bytes)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let version: Int
        do {
            version = try decoder.decode(VersionOnly.self, from: data).version
        } catch {
            throw .corrupt(describe(error))
        }
        if version > currentVersion { throw .newerVersion(version) }
        guard version == currentVersion else { throw .corrupt("unknown schema version \(version)") }
        let file: StoreFile
        do {
            file = try decoder.decode(StoreFile.self, from: data)
        } catch {
            throw .corrupt(describe(error))
        }
        var ids = Set<String>()
        for record in file.accessories where !ids.insert(record.id).inserted {
            throw .corrupt("accessory id \(record.id) appears twice")
        }
        return file.accessories
    }

    static func encode(_ records: [AccessoryRecord]) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        // The store file is the one place keys are written (mode 0600).
        encoder.userInfo[AccessoryRecord.keysUserInfoKey] = true
        // Encoding plain value types with string/number leaves cannot fail.
        let data = (try? encoder.encode(StoreFile(version: currentVersion, accessories: records))) ?? Data()
        return Array(data) + [0x0A]
    }

    /// A one-line reason from a decoding error, naming the place in the file.
    static func describe(_ error: any Error) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            let text = codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return text.isEmpty ? "the top level" : String(text.drop { $0 == "." })
        }
        switch error {
        case DecodingError.dataCorrupted(let context):
            if context.codingPath.isEmpty {
                let reason = context.underlyingError.map { "\($0)" } ?? context.debugDescription
                return "not valid JSON: \(reason)"
            }
            return "\(context.debugDescription) at \(path(context.codingPath))"
        case DecodingError.keyNotFound(let key, let context):
            return "missing \"\(key.stringValue)\" at \(path(context.codingPath))"
        case DecodingError.typeMismatch(let type, let context):
            return "\(path(context.codingPath)) is not \(type): \(context.debugDescription)"
        case DecodingError.valueNotFound(let type, let context):
            return "\(path(context.codingPath)) is null, expected \(type)"
        default:
            return "\(error)"
        }
    }
}
