import NIOCore
import NIOHTTP1

/// Answers one connection's requests (read-only: GET and HEAD).
///
/// | path | what | type |
/// |---|---|---|
/// | `/` | the page | `text/html` |
/// | `/app.js`, `/app.css` | its script and style | `text/javascript`, `text/css` |
/// | `/api/state` | the state now | `application/json` |
/// | `/api/events` | the live stream | `text/event-stream` |
///
/// Refusals: 401 without the token (when one is set), 403 for a foreign `Host` (without a
/// token), 404, 405 for other methods, 413 for a body over 16 KiB (then the connection closes),
/// 503 past ``WebSettings/maxStreams`` streams.
final class WebHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let hub: WebHub
    private let access: WebAccess
    private var request: HTTPRequestHead?
    private var bodyBytes = 0
    private var stream: WebStreamClient?
    private var heartbeat: RepeatedTask?

    /// Most request body bytes read (and ignored) before the connection is closed.
    static let maxBody = 16 * 1024

    /// Seconds between heartbeat comments on an idle stream.
    static let heartbeatInterval = TimeAmount.seconds(15)

    init(hub: WebHub, access: WebAccess) {
        self.hub = hub
        self.access = access
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            request = head
            bodyBytes = 0
        case .body(let chunk):
            // Read-only: bodies are ignored, and a long one ends the connection.
            bodyBytes += chunk.readableBytes
            if bodyBytes > Self.maxBody, request != nil {
                request = nil
                send(context, .payloadTooLarge, text: "read-only: requests carry no body\n", keepAlive: false, isHead: false)
            }
        case .end:
            guard let head = request, stream == nil else { return }
            request = nil
            respond(to: head, context: context)
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { stream?.flush() }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        endStream()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        endStream()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // An idle connection that is not a stream (a stream is idle on the read side by design).
        if event is IdleStateHandler.IdleStateEvent, stream == nil {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func endStream() {
        heartbeat?.cancel()
        heartbeat = nil
        if let stream { hub.unsubscribe(stream) }
        stream = nil
    }

    // MARK: Routing

    private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
        let target = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = target.first.map(String.init) ?? "/"
        let query = target.count > 1 ? target[1] : nil
        let keepAlive = head.isKeepAlive
        let isHead = head.method == .HEAD
        guard head.method == .GET || isHead else {
            send(context, .methodNotAllowed, text: "read-only: use GET or HEAD\n", keepAlive: keepAlive, isHead: false, extra: [("Allow", "GET, HEAD")])
            return
        }
        switch access.check(query: query, authorization: head.headers.first(name: "authorization"), host: head.headers.first(name: "host")) {
        case .allowed:
            break
        case .unauthorized:
            send(
                context, .unauthorized,
                text: "this view needs its token: open the address with ?token=TOKEN, or send Authorization: Bearer TOKEN\n",
                keepAlive: keepAlive, isHead: isHead, extra: [("WWW-Authenticate", "Bearer realm=\"nearby\"")])
            return
        case .foreignHost(let host):
            send(
                context, .forbidden,
                text: "requests for host '\(host)' are refused without a token; open http://\(access.address)/ on this machine\n",
                keepAlive: keepAlive, isHead: isHead)
            return
        }
        switch path {
        case "/", "/index.html":
            let query = access.token.map { "?token=" + $0 } ?? ""
            send(context, .ok, type: "text/html; charset=utf-8", body: WebAssets.page(query: query), keepAlive: keepAlive, isHead: isHead)
        case "/app.js":
            send(context, .ok, type: "text/javascript; charset=utf-8", body: WebAssets.script, keepAlive: keepAlive, isHead: isHead)
        case "/app.css":
            send(context, .ok, type: "text/css; charset=utf-8", body: WebAssets.style, keepAlive: keepAlive, isHead: isHead)
        case "/api/state":
            send(context, .ok, type: "application/json", body: hub.stateText() + "\n", keepAlive: keepAlive, isHead: isHead)
        case "/api/events":
            startStream(context, head: head)
        default:
            send(context, .notFound, text: "not found: \(path); this server has / (the page), /api/state and /api/events\n", keepAlive: keepAlive, isHead: isHead)
        }
    }

    private func startStream(_ context: ChannelHandlerContext, head: HTTPRequestHead) {
        if head.method == .HEAD {
            var headers = Self.headers(type: "text/event-stream; charset=utf-8")
            headers.add(name: "Content-Length", value: "0")
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .ok, headers: headers))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            return
        }
        // Subscribing queues `hello` and schedules its write after this call, so the head goes first.
        guard let client = hub.subscribe(channel: context.channel) else {
            send(context, .serviceUnavailable, text: "too many live views are open; close one and reload\n", keepAlive: false, isHead: false, extra: [("Retry-After", "5")])
            return
        }
        stream = client
        var headers = Self.headers(type: "text/event-stream; charset=utf-8")
        headers.add(name: "X-Accel-Buffering", value: "no")
        context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .ok, headers: headers))), promise: nil)
        heartbeat = context.eventLoop.scheduleRepeatedTask(initialDelay: Self.heartbeatInterval, delay: Self.heartbeatInterval) { _ in
            client.heartbeat()
        }
    }

    // MARK: Responses

    /// Headers of every response: no caching, no sniffing, no framing, no referrer, and a content
    /// security policy that allows only this server's own script, style and connections.
    static func headers(type: String) -> HTTPHeaders {
        HTTPHeaders([
            ("Content-Type", type),
            ("Cache-Control", "no-store"),
            ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "no-referrer"),
            ("X-Frame-Options", "DENY"),
            (
                "Content-Security-Policy",
                "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
            ),
        ])
    }

    private func send(
        _ context: ChannelHandlerContext, _ status: HTTPResponseStatus, text: String, keepAlive: Bool, isHead: Bool,
        extra: [(String, String)] = []
    ) {
        send(context, status, type: "text/plain; charset=utf-8", body: text, keepAlive: keepAlive, isHead: isHead, extra: extra)
    }

    private func send(
        _ context: ChannelHandlerContext, _ status: HTTPResponseStatus, type: String, body: String, keepAlive: Bool, isHead: Bool,
        extra: [(String, String)] = []
    ) {
        let buffer = context.channel.allocator.buffer(string: body)
        var headers = Self.headers(type: type)
        headers.add(name: "Content-Length", value: "\(buffer.readableBytes)")
        headers.add(name: "Connection", value: keepAlive ? "keep-alive" : "close")
        for (name, value) in extra { headers.add(name: name, value: value) }
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        if !isHead { context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil) }
        let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if !keepAlive {
            let channel = context.channel
            done.whenComplete { _ in channel.close(promise: nil) }
        }
    }
}
