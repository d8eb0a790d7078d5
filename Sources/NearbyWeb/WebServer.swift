#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// The web view's HTTP server (SwiftNIO, HTTP/1.1, one event-loop thread of its own).
final class WebServer: Sendable {
    /// The bound address (with the real port when 0 was asked).
    let address: WebAddress
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel
    private let registry: Registry

    private init(address: WebAddress, group: MultiThreadedEventLoopGroup, channel: any Channel, registry: Registry) {
        self.address = address
        self.group = group
        self.channel = channel
        self.registry = registry
    }

    /// Binds and starts serving.
    /// - Throws: ``WebError`` `bindFailed` saying why (in use, not an address here, no permission).
    static func start(settings: WebSettings, hub: WebHub, logger: Logger) async throws(WebError) -> WebServer {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let registry = Registry()
        let token = settings.token
        let requested = settings.address
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.so_reuseaddr), value: 1)
            // Small buffers: a browser that stops reading makes the channel unwritable soon, and
            // its queue coalesces from then on.
            .childChannelOption(.writeBufferWaterMark, value: ChannelOptions.Types.WriteBufferWaterMark(low: 16 * 1024, high: 64 * 1024))
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let bound = registry.address ?? requested
                    try channel.pipeline.syncOperations.addHandler(IdleStateHandler(readTimeout: .seconds(60)))
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(WebHTTPHandler(hub: hub, access: WebAccess(token: token, address: bound)))
                    registry.add(channel)
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.bind(host: requested.host, port: requested.port).get()
        } catch {
            try? await group.shutdownGracefully()
            throw WebError(.bindFailed, Self.explain(error, address: requested))
        }
        let port = channel.localAddress?.port ?? requested.port
        let address = (try? WebAddress(host: requested.host, port: port)) ?? requested
        registry.bound(address)
        logger.debug("web view listening", metadata: ["address": "\(address)"])
        return WebServer(address: address, group: group, channel: channel, registry: registry)
    }

    /// Open connections (streams and others).
    var connectionCount: Int { registry.channels.withLock { $0.count } }

    /// Stops listening, closes every connection, ends the event loop.
    func stop() async {
        try? await channel.close()
        let open = registry.channels.withLock { Array($0.values) }
        for connection in open { try? await connection.close() }
        try? await group.shutdownGracefully()
    }

    private static func explain(_ error: any Error, address: WebAddress) -> String {
        let code = (error as? IOError)?.errnoCode
        switch code {
        case EADDRINUSE:
            return "cannot listen on \(address): the port is in use by another program; pick another (--web PORT) or --web 0 for any free port"
        case EADDRNOTAVAIL:
            return "cannot listen on \(address): it is not an address of this machine (`ip -brief address` lists them); use 127.0.0.1 or 0.0.0.0"
        case EACCES:
            return "cannot listen on \(address): ports below 1024 need root or CAP_NET_BIND_SERVICE; use a port from 1024 up"
        default:
            return "cannot listen on \(address): \(error)"
        }
    }

    /// The connections, and the bound address once known, shared with the channel initializer.
    private final class Registry: Sendable {
        let channels = Mutex<[ObjectIdentifier: any Channel]>([:])
        private let boundAddress = Mutex<WebAddress?>(nil)

        var address: WebAddress? { boundAddress.withLock { $0 } }
        func bound(_ address: WebAddress) { boundAddress.withLock { $0 = address } }

        func add(_ channel: any Channel) {
            let key = ObjectIdentifier(channel)
            channels.withLock { $0[key] = channel }
            channel.closeFuture.whenComplete { [self] _ in
                _ = channels.withLock { $0.removeValue(forKey: key) }
            }
        }
    }
}
