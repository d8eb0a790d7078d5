/// Server-sent-event framing (the HTML Living Standard's `text/event-stream`).
enum WebFrame {
    /// `event: NAME\ndata: JSON\n\n`. `data` must hold no line break (JSON text from
    /// `JSONObject` escapes them).
    static func event(_ name: String, _ data: String) -> String {
        "event: " + name + "\ndata: " + data + "\n\n"
    }

    /// The reconnection delay a browser's EventSource uses after the stream breaks, ms.
    static let retry = "retry: 2000\n"

    /// A comment line: keeps idle proxies and the connection alive, and finds dead peers.
    static let heartbeat = ": keep-alive\n\n"
}
