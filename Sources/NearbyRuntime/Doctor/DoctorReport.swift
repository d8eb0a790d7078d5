import Foundation
import NearbyBase

/// What `nearby doctor` found (``DoctorChecks/all(hci:config:bus:)``): every finding, how many
/// block ranging, as text or JSON.
public struct DoctorReport: Sendable, Hashable {
    /// The controller that was checked (`hci:0`, `tcp:HOST:PORT`, ...).
    public var hci: String
    /// The findings, in the order of the checks.
    public var findings: [DoctorFinding]

    /// How many findings block ranging (status `error`).
    public var blocking: Int { findings.filter { $0.status == .error }.count }
    /// How many findings are warnings.
    public var warnings: Int { findings.filter { $0.status == .warning }.count }

    /// One JSON object: `{"hci":...,"findings":[{"check","status","message","fix"}...],"blocking":N,"warnings":N}`.
    public var json: String {
        let items = findings.map { finding in
            JSONObject([
                ("check", .string(finding.check)), ("status", .string(finding.status.rawValue)),
                ("message", .string(finding.message)), ("fix", .string(finding.fix)),
            ]).text
        }
        return JSONObject([
            ("hci", .string(hci)), ("findings", .raw("[" + items.joined(separator: ",") + "]")),
            ("blocking", .integer(blocking)), ("warnings", .integer(warnings)),
        ]).text
    }

    /// The readable report: a line per finding (status, check, message) with its fix below it,
    /// an empty line, and the verdict (`nothing blocks ranging`, `2 problems block ranging`).
    public var lines: [String] {
        var lines: [String] = []
        for finding in findings {
            lines.append(finding.status.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0) + " "
                + finding.check.padding(toLength: 11, withPad: " ", startingAt: 0) + " " + finding.message)
            if let fix = finding.fix { lines.append(String(repeating: " ", count: 21) + "fix: " + fix) }
        }
        lines.append("")
        let warned = warnings > 0 ? "\(warnings) warning\(warnings == 1 ? "" : "s")" : nil
        if blocking == 0 {
            lines.append("nothing blocks ranging" + (warned.map { " (\($0))" } ?? ""))
        } else {
            lines.append("\(blocking) problem\(blocking == 1 ? "" : "s") block\(blocking == 1 ? "s" : "") ranging" + (warned.map { ", \($0)" } ?? ""))
        }
        return lines
    }
}
