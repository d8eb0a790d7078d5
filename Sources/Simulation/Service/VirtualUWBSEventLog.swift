import Foundation
import NearbyBase
import Synchronization
import UCI

/// Turns world events into lines for people: lifecycle always (attached, detached, placed,
/// sessions, faults, problems); per session and peer a ranging line when ranging starts or
/// fails and then every 5 s of world time (every round with `verbose`); built-in peers' rounds
/// and device states only with `verbose`; packets as hex when the world traces them. What
/// `nearby sim uwbs` prints.
public final class VirtualUWBSEventLog: Sendable {
    private let verbose: Bool
    private let write: @Sendable (String) -> Void
    private let lastPrinted = Mutex<[String: (time: Double, valid: Bool)]>([:])
    private let peers = Mutex<Set<VirtualUWBSDeviceID>>([])

    /// A log writing each line (without a newline) to `write`.
    public init(verbose: Bool, write: @escaping @Sendable (String) -> Void) {
        self.verbose = verbose
        self.write = write
    }

    /// Writes the line(s) `event` is worth, if any.
    public func log(_ event: VirtualUWBSEvent) {
        switch event {
        case .deviceAttached(let id, let name, let isPeer):
            if isPeer { _ = peers.withLock { $0.insert(id) } }
            write("\(id) attached: \(name)")
        case .deviceDetached(let id, let reason):
            write("\(id) detached: \(reason)")
        case .devicePlaced(let id, let place):
            write("\(id) placed in the scene as \(place)")
        case .deviceState(let id, let state):
            if verbose { write("\(id): \(state)") }
        case .session(let id, let change):
            write("\(id): \(change)")
        case .round(let round):
            logRound(round)
        case .cannotRange(let id, let sessionID, let peer, let peerDevice, let reason):
            write("\(id): session \(sessionID) cannot range with \(peer) (\(peerDevice)): \(reason)")
        case .radioBusy(let id, let sessionID, let busyWith, let deferred):
            if verbose {
                write("\(id): radio busy with session \(busyWith): "
                      + (deferred ? "session \(sessionID)'s round waits" : "session \(sessionID)'s round missed"))
            }
        case .fault(let id, let fault):
            write("\(id): fault: \(fault)")
        case .problem(let id, let problem):
            write("\(id): \(problem)")
        case .packet(let id, let direction, let packet):
            write("\(id) \(direction == .toDevice ? ">" : "<") \(Hex.bytes(packet.bytes))")
        }
    }

    private func logRound(_ round: VirtualRangingRound) {
        guard verbose || !peers.withLock({ $0.contains(round.device) }) else { return }
        let valid = round.measurement?.isValid ?? false
        let key = "\(round.device)|\(round.sessionID)|\(round.peerAddress)"
        let due = lastPrinted.withLock { printed -> Bool in
            if !verbose, let last = printed[key], last.valid == valid, round.worldTime - last.time < 5 { return false }
            printed[key] = (round.worldTime, valid)
            return true
        }
        guard due else { return }
        var line = "\(round.device): session \(round.sessionID) -> \(round.peerAddress): "
        guard let measurement = round.measurement else {
            write(line + "RX timeout (no device answers)")
            return
        }
        guard let distance = measurement.distance, measurement.isValid else {
            write(line + "RX timeout (dropout), truth \(Self.format(measurement.truth.distance)) m")
            return
        }
        line += "\(Self.format(distance)) m"
        if let azimuth = measurement.azimuth { line += ", azimuth \(Self.format(azimuth))°" }
        if let elevation = measurement.elevation { line += ", elevation \(Self.format(elevation))°" }
        if measurement.reportedNonLineOfSight == true { line += ", NLoS" }
        line += " (truth \(Self.format(measurement.truth.distance)) m, \(Self.format(measurement.truth.azimuth))°)"
        write(line)
    }

    /// Two decimals, without a "-0.00".
    private static func format(_ value: Double) -> String {
        String(format: "%.2f", abs(value) < 0.005 ? 0 : value)
    }
}
