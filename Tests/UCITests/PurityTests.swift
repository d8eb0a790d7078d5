import Foundation
import NearbyTestSupport
import Testing

/// The codec is pure: no Foundation, no C modules, no I/O, and no libm calls (a program that
/// imports only `UCI` does not link libm on Linux: `Double.rounded()` or `sqrt` would fail to
/// link there, as it did before `roundedInteger` replaced `rounded()`).
@Suite("UCI module purity")
struct PurityTests {
    @Test("Sources/UCI imports nothing but Ranging and calls no libm function")
    func pure() throws {
        let folder = PackagePaths.file("Sources/UCI")
        let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        #expect(files.count > 20)
        let forbidden = [".rounded(", "sqrt(", "floor(", "ceil(", "pow(", "exp(", "log(", "sin(", "cos(", "atan2(", "round("]
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            let imports = text.split(separator: "\n").filter { $0.hasPrefix("import ") || $0.hasPrefix("public import ") }
            #expect(imports.allSatisfy { $0.hasSuffix(" Ranging") }, "\(file): \(imports)")
            let code = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
            for call in forbidden {
                #expect(!code.contains(call), "\(file) calls \(call)")
            }
        }
    }
}
