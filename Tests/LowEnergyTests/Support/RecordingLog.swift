import Logging
import Synchronization

/// A log handler that keeps every message (all levels), to check what reaches the log.
struct RecordingLog: LogHandler {
    final class Messages: Sendable {
        private let storage = Mutex<[String]>([])
        func append(_ message: String) { storage.withLock { $0.append(message) } }
        var all: [String] { storage.withLock { $0 } }
    }

    let messages: Messages
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        messages.append("\(event.level): \(event.message) \(metadata)")
    }

    /// A trace-level logger recording into `messages`.
    static func logger(_ messages: Messages) -> Logger {
        Logger(label: "test.recorded") { _ in RecordingLog(messages: messages) }
    }
}
