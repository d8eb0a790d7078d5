public import Accessories
public import LowEnergy

/// What `nearby scan` prints while it scans: a `ScanReport` line (or JSON object)
/// per advertisement that matches the filter, for a while or until Ctrl-C.
public enum ScanPrinter {
    /// Prints what `advertisements` bring that matches `filter` until `duration` seconds have
    /// passed (`nil`: until SIGINT / SIGTERM; a signal also ends a `duration` early), then calls
    /// `stop`, which must end `advertisements` (e.g. `BLEHost.stopScanning()`), and
    /// returns once everything that came is printed.
    /// - Parameters:
    ///   - advertisements: the scan's advertisements.
    ///   - filter: what to print (name, service, RSSI).
    ///   - json: JSON objects instead of lines.
    ///   - duration: seconds to scan; `nil`: until a signal.
    ///   - write: where each line goes (standard output by default).
    ///   - stop: ends the scan (and so `advertisements`).
    public static func run(
        _ advertisements: AsyncStream<Advertisement>, filter: AdvertisementFilter, json: Bool, duration: Double?,
        write: @escaping @Sendable (String) -> Void = { Console.out($0) }, stop: () async -> Void
    ) async {
        let printer = Task {
            var report = ScanReport(json: json)
            for await advertisement in advertisements where filter.matches(advertisement) {
                if let line = report.line(for: advertisement) { write(line) }
            }
        }
        if let duration {
            _ = await cancellingOnSignal { try await Task.sleep(for: .milliseconds(Int(duration * 1000))) }
        } else {
            _ = await waitForSignalOr { false }
        }
        await stop()
        await printer.value
    }
}
