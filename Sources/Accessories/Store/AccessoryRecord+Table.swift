public import Foundation
import LowEnergy

extension AccessoryRecord {
    /// The records as an aligned table, header first (`nearby accessories list`): ID, NAME,
    /// ADVERTISED, ADDRESS, TYPE, DATA CHANNEL, BONDING, LAST SEEN (UTC); columns two spaces apart.
    public static func table(_ records: [AccessoryRecord]) -> [String] {
        var rows = [["ID", "NAME", "ADVERTISED", "ADDRESS", "TYPE", "DATA CHANNEL", "BONDING", "LAST SEEN (UTC)"]]
        for record in records {
            rows.append([record.id, record.displayName, record.advertisedName ?? "-", record.address.description,
                         record.addressType.description, record.dataChannel?.name ?? "-", record.bonding.description,
                         time(record.lastSeenAt)])
        }
        let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, text in
                column == row.count - 1 ? text : text + String(repeating: " ", count: max(0, widths[column] - text.count))
            }.joined(separator: "  ")
        }
    }

    /// `2025-06-15 15:06` (UTC) or `never`.
    public static func time(_ date: Date?) -> String {
        guard let date else { return "never" }
        var seconds = time_t(date.timeIntervalSince1970)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(format: "%04d-%02d-%02d %02d:%02d", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday, parts.tm_hour, parts.tm_min)
    }
}
