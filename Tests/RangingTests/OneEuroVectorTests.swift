import NearbyTestSupport
import Foundation
import Ranging
import Testing

/// The conformance vector of the reference 1€ implementation (data/oneeuro/groundTruth.csv).
@Suite struct OneEuroVectorTests {
    @Test func reproducesTheReferenceVectorWithin1e5() throws {
        let text = try String(contentsOf: PackagePaths.file("data/oneeuro/groundTruth.csv"), encoding: .utf8)
        let rows = text.split(separator: "\n").dropFirst().map { $0.split(separator: ",").map { Double($0)! } }
        #expect(rows.count == 1200)
        var filter = OneEuroFilter(OneEuroFilter.Parameters(minimumCutoff: 1, beta: 0.1, derivativeCutoff: 1, frequency: 120))
        var worst = 0.0
        for (i, row) in rows.enumerated() {
            // The CSV prints timestamps rounded to 6 significant digits; the generator's are i/120.
            let time = Double(i) / 120
            #expect(abs(time - row[0]) < 5e-6)
            let out = filter.update(FilterInput(value: row[2], time: time))
            worst = max(worst, abs(out - row[3]))
        }
        #expect(worst < 1e-5, "largest difference \(worst)")
    }
}
