import Foundation
public import Simulation

extension Scenario {
    /// The line a demo of this scenario starts with: `demo: scenario walk (SUMMARY), 2
    /// accessories, 60 s at ×10 (6.0 s); Ctrl-C stops`.
    /// - Parameters:
    ///   - hostIsAccessory: the accessory role (`count` phones) rather than the phone role
    ///     (`count` accessories).
    ///   - count: how many accessories (or phones).
    ///   - length: the demo's length, seconds of scenario time.
    ///   - speed: simulated seconds per real second (shown unless 1, with the real length).
    public func demoAnnouncement(hostIsAccessory: Bool, count: Int, length: Double, speed: Double) -> String {
        "demo: scenario \(name) (\(summary)), "
            + (hostIsAccessory ? "this host as the accessory, \(count) phone\(count == 1 ? "" : "s"), " : "\(count) accessor\(count == 1 ? "y" : "ies"), ")
            + String(format: "%.0f s", length) + (speed == 1 ? "" : String(format: " at ×%g (%.1f s)", speed, length / speed))
            + "; Ctrl-C stops"
    }
}
