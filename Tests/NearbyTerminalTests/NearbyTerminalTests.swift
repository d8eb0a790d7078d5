import NearbyTerminal
import Testing

@Suite("NearbyTerminal")
struct NearbyTerminalTests {
    @Test func arrowPointsWhereTheAccessoryIs() {
        #expect(RangeScreen.arrow(0) == "↑")
        #expect(RangeScreen.arrow(90) == "→")
        #expect(RangeScreen.arrow(-90) == "←")
        #expect(RangeScreen.arrow(180) == "↓")
        #expect(RangeScreen.arrow(44) == "↗")
    }
}
