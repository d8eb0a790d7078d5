import Positioning
import Testing

@Suite struct SurveyTests {
    static let truth: [String: PlanePoint] = [
        "hall": PlanePoint(x: 0, y: 0), "desk": PlanePoint(x: 6, y: 0), "kitchen": PlanePoint(x: 2, y: 4.5), "den": PlanePoint(x: 7, y: 5),
    ]
    static let headings: [String: Double] = ["hall": 45, "desk": -30, "kitchen": 150, "den": -120]

    static func ranges(noise: Double = 0, azimuths: Bool = true) -> [HostSurvey.Range] {
        var ranges: [HostSurvey.Range] = []
        var k = 0.0
        for (a, pa) in truth.sorted(by: { $0.key < $1.key }) {
            for (b, pb) in truth.sorted(by: { $0.key < $1.key }) where a != b {
                k += 1
                let error = noise * (k.truncatingRemainder(dividingBy: 3) - 1)
                let azimuth = azimuths ? pa.bearing(to: pb) - headings[a]! : nil
                ranges.append(HostSurvey.Range(observer: a, target: b, distance: pa.distance(to: pb) + error, samples: 40, azimuth: azimuth))
            }
        }
        return ranges
    }

    @Test func exactRangesGiveExactPositionsAndHeadings() throws {
        let survey = HostSurvey(hosts: ["hall", "desk", "kitchen", "den"], fixed: ["hall": Self.truth["hall"]!, "desk": Self.truth["desk"]!])
        let result = try survey.solve(Self.ranges())
        for (name, point) in Self.truth { #expect(result.positions[name]!.distance(to: point) < 1e-4, "\(name): \(result.positions[name]!)") }
        for (name, heading) in Self.headings {
            let found = try #require(result.headings[name])
            #expect(abs(((found - heading + 540).truncatingRemainder(dividingBy: 360)) - 180) < 0.01, "\(name): \(found)")
        }
        #expect(!result.mirrorAmbiguous && result.rms < 1e-4)
    }

    @Test func theMirrorImageIsToldApartByAzimuths() throws {
        // Fixed hosts on the x axis: kitchen and den could be at y < 0 as well.
        let survey = HostSurvey(hosts: ["hall", "desk", "kitchen", "den"], fixed: ["hall": Self.truth["hall"]!, "desk": Self.truth["desk"]!])
        let result = try survey.solve(Self.ranges(noise: 0.03))
        #expect(result.positions["kitchen"]!.y > 0 && result.positions["den"]!.y > 0)
        #expect(result.positions["kitchen"]!.distance(to: Self.truth["kitchen"]!) < 0.1)
        let blind = try survey.solve(Self.ranges(azimuths: false))
        #expect(blind.mirrorAmbiguous)
        var guessed = survey
        guessed.guesses = ["kitchen": PlanePoint(x: 2, y: 3), "den": PlanePoint(x: 6, y: 6)]
        let withGuesses = try guessed.solve(Self.ranges(azimuths: false))
        #expect(!withGuesses.mirrorAmbiguous && withGuesses.positions["den"]!.distance(to: Self.truth["den"]!) < 1e-3)
    }

    @Test func tooFewRangesAreExplained() {
        let survey = HostSurvey(hosts: ["hall", "desk", "kitchen"], fixed: ["hall": .zero, "desk": PlanePoint(x: 6, y: 0)])
        #expect(throws: HousePlanError.self) { try survey.solve([HostSurvey.Range(observer: "hall", target: "kitchen", distance: 4)]) }
        #expect(throws: HousePlanError.self) { try HostSurvey(hosts: ["hall"], fixed: ["hall": .zero]).solve([]) }
    }

    @Test func theCollectorTakesMediansAndTrustedAzimuths() {
        var collector = SurveyCollector()
        for (index, distance) in [3.0, 3.1, 9.0, 2.9, 3.05].enumerated() {
            collector.add(observer: "a", target: "b", distance: distance, azimuth: index < 3 ? 10 : 170, figureOfMerit: index < 3 ? 90 : 20)
        }
        collector.add(observer: "a", target: "a", distance: 1, azimuth: nil, figureOfMerit: nil)
        let ranges = collector.ranges
        #expect(ranges.count == 1 && ranges[0].distance == 3.05 && ranges[0].samples == 5 && ranges[0].azimuth == 10)
    }
}
