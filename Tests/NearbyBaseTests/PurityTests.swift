import Foundation
import NearbyTestSupport
import Testing

/// The pure modules stay pure: no Foundation, no C modules, no actors, nothing but the pure
/// modules below them (and swift-numerics' RealModule for Ranging's math). The codecs (NearbyBase,
/// UCI, NIProtocol) also call no libm function: a program that imports only `UCI` does not link
/// libm on Linux, so `Double.rounded()` or `sqrt` would fail to link there, as it did before
/// `DecimalText.roundedInteger` replaced `rounded()`.
@Suite("Pure modules")
struct PurityTests {
    struct Rule: Sendable, CustomStringConvertible {
        var module: String
        var imports: Set<String>
        var noLibm: Bool
        var minimumFiles: Int
        var description: String { module }
    }

    static let rules = [
        Rule(module: "NearbyBase", imports: [], noLibm: true, minimumFiles: 4),
        Rule(module: "Ranging", imports: ["NearbyBase", "RealModule"], noLibm: false, minimumFiles: 20),
        Rule(module: "UCI", imports: ["Ranging", "NearbyBase"], noLibm: true, minimumFiles: 20),
        Rule(module: "NIProtocol", imports: ["UCI", "NearbyBase"], noLibm: true, minimumFiles: 15),
        Rule(module: "Positioning", imports: ["NearbyBase", "RealModule"], noLibm: false, minimumFiles: 10),
    ]

    @Test("imports only the modules below it, no Foundation / C modules / actors", arguments: rules)
    func pure(_ rule: Rule) throws {
        let folder = PackagePaths.file("Sources/\(rule.module)")
        let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        #expect(files.count >= rule.minimumFiles)
        let forbidden = [".rounded(", "sqrt(", "floor(", "ceil(", "pow(", "exp(", "log(", "sin(", "cos(", "atan2(", "round("]
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            let imported = lines.compactMap { line -> String? in
                for prefix in ["import ", "public import ", "internal import ", "@_exported import "] where line.hasPrefix(prefix) {
                    return String(line.dropFirst(prefix.count))
                }
                return nil
            }
            for module in imported {
                #expect(rule.imports.contains(module), "\(rule.module)/\(file) imports \(module)")
            }
            let code = lines.filter { !$0.hasPrefix("//") }.joined(separator: "\n")
            let actor = try NSRegularExpression(pattern: #"(^|[\s;{])(public |internal |private |fileprivate |final |distributed )*actor [A-Z]"#, options: .anchorsMatchLines)
            #expect(actor.firstMatch(in: code, range: NSRange(code.startIndex..., in: code)) == nil, "\(rule.module)/\(file) declares an actor")
            #expect(!code.contains("#if canImport"), "\(rule.module)/\(file) imports conditionally")
            if rule.noLibm {
                for call in forbidden {
                    #expect(!code.contains(call), "\(rule.module)/\(file) calls \(call)")
                }
            }
        }
    }
}
