import CMosquitto
import Dispatch
import Foundation
import Logging
import NearbySupport
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Every call into libmosquitto: one `struct mosquitto`, its network thread, its callbacks.
///
/// Threads: a dedicated network thread connects (blocking `mosquitto_connect_bind_v5`), runs
/// `mosquitto_loop` (which also sends keepalive pings) until the connection ends, then waits
/// the reconnect delay and tries again. libmosquitto runs in threaded mode
/// (`mosquitto_threaded_set`): other threads may call `mosquitto_publish_v5`, which only queues
/// the packet and wakes the loop. libmosquitto calls back (connect, disconnect, publish
/// acknowledged, message, log) on the network thread.
///
/// Queues: QoS 1 messages that are not retained wait in ``State/pending`` (bounded: the oldest
/// is dropped when it is full) and are handed to libmosquitto only while connected, at most
/// ``MQTTClientConfiguration/inflightWindow`` unacknowledged at once (``State/inflight``,
/// keyed by message id). libmosquitto keeps unacknowledged messages across a reconnect and
/// re-sends them (with DUP) after the next CONNACK, so nothing handed over is lost while the
/// process runs. Retained messages are cached (the latest per topic) and re-published after
/// every connect: a broker restarted without persistence gets the current state back.
final class MosquittoConnection: @unchecked Sendable {
    // @unchecked: `handle` is shared by the network thread and publishing threads, which
    // libmosquitto's threaded mode allows; everything else is behind `state` and `handover`.

    enum Phase: Sendable, Equatable {
        case idle, connecting, connected, disconnected, stopped
    }

    struct State {
        var phase = Phase.idle
        var started = false
        var stopping = false
        /// Waiting QoS 1 messages, oldest first (at most `queueLimit`; events are rare, so an
        /// array is enough).
        var pending: [MQTTMessage] = []
        var inflight: [Int32: MQTTMessage] = [:]
        var retainedOrder: [String] = []
        var retained: [String: MQTTMessage] = [:]
        var subscriptions: [(filter: String, qos: MQTTQoS)] = []
        var statistics = MQTTStatistics()
        var lastLogError: String?
        var refusal: MQTTError?

        mutating func cache(_ message: MQTTMessage) {
            if retained.updateValue(message, forKey: message.topic) == nil { retainedOrder.append(message.topic) }
        }

        mutating func uncache(_ message: MQTTMessage) {
            guard retained[message.topic] == message else { return }
            retained[message.topic] = nil
            retainedOrder.removeAll { $0 == message.topic }
        }
    }

    let configuration: MQTTClientConfiguration
    let broadcaster = Broadcaster<MQTTClientEvent>(bufferingNewest: 4096)
    private let handle: OpaquePointer
    private let logger: Logger
    private let state = Mutex(State())
    /// Serialises handing QoS 1 messages to libmosquitto with recording their message ids, so
    /// an acknowledgement never arrives for an id not yet recorded.
    private let handover = Mutex(())
    private let wakeup = DispatchSemaphore(value: 0)
    private let finished = Promise<Void>()
    private let textProperties: OpaquePointer?
    private let jsonProperties: OpaquePointer?
    private let connectProperties: OpaquePointer?

    private static let ok = MOSQ_ERR_SUCCESS.rawValue
    /// libmosquitto, opened at the first connection's creation (``MosquittoLibrary``).
    private let lib: MosquittoLibrary

    /// Creates the libmosquitto client and applies the configuration (nothing connects yet).
    /// - Throws: ``MQTTError`` for settings libmosquitto rejects (TLS files that cannot be read),
    ///   ``MQTTError/Code/libraryMissing`` when libmosquitto is not installed.
    init(configuration: MQTTClientConfiguration, logger: Logger) throws(MQTTError) {
        try configuration.validate()
        let lib = try MosquittoLibrary.load()
        self.lib = lib
        let clean = configuration.sessionExpiry == nil
        guard let handle = configuration.clientID.withCString({ lib.new($0, clean, nil) }) else {
            throw MQTTError(.library, "libmosquitto could not create a client (out of memory?)")
        }
        self.handle = handle
        self.configuration = configuration
        self.logger = logger
        var text: OpaquePointer?
        var json: OpaquePointer?
        if configuration.protocolVersion == .v5 {
            _ = lib.propertyAddByte(&text, Int32(MQTT_PROP_PAYLOAD_FORMAT_INDICATOR.rawValue), 1)
            _ = lib.propertyAddByte(&json, Int32(MQTT_PROP_PAYLOAD_FORMAT_INDICATOR.rawValue), 1)
            _ = lib.propertyAddString(&json, Int32(MQTT_PROP_CONTENT_TYPE.rawValue), "application/json")
        }
        var connect: OpaquePointer?
        if configuration.protocolVersion == .v5, let expiry = configuration.sessionExpiry {
            _ = lib.propertyAddInt32(&connect, Int32(MQTT_PROP_SESSION_EXPIRY_INTERVAL.rawValue), expiry)
        }
        textProperties = text
        jsonProperties = json
        connectProperties = connect
        try configure()
    }

    deinit {
        lib.destroy(handle)
        var text = textProperties
        var json = jsonProperties
        var connect = connectProperties
        lib.propertyFreeAll(&text)
        lib.propertyFreeAll(&json)
        lib.propertyFreeAll(&connect)
    }

    private func configure() throws(MQTTError) {
        let c = configuration
        lib.userDataSet(handle, Unmanaged.passUnretained(self).toOpaque())
        _ = lib.threadedSet(handle, true)
        _ = lib.intOption(handle, MOSQ_OPT_PROTOCOL_VERSION, c.protocolVersion == .v5 ? MQTT_PROTOCOL_V5 : MQTT_PROTOCOL_V311)
        _ = lib.intOption(handle, MOSQ_OPT_TCP_NODELAY, 1)
        _ = lib.maxInflightMessagesSet(handle, UInt32(c.inflightWindow))
        if let user = c.effectiveUsername {
            let rc = user.withCString { user in
                if let password = c.password {
                    return password.value.withCString { lib.usernamePwSet(handle, user, $0) }
                }
                return lib.usernamePwSet(handle, user, nil)
            }
            guard rc == Self.ok else { throw MQTTError(.invalidConfiguration, "the MQTT user name or password is not valid UTF-8") }
        }
        if let will = c.will {
            let rc = will.topic.withCString { topic in
                will.payload.withUnsafeBytes { payload in
                    lib.willSetV5(handle, topic, Int32(payload.count), payload.baseAddress, will.qos.rawValue, will.retain, nil)
                }
            }
            guard rc == Self.ok else { throw MQTTError(.invalidConfiguration, "the last will on '\(will.topic)' is not valid: \(errorText(rc))") }
        }
        if c.broker.isTLS { try configureTLS(c.tls) }
        installCallbacks()
    }

    private func configureTLS(_ files: MQTTTLSFiles) throws(MQTTError) {
        for (name, path) in [("ca_file", files.caFile), ("cert_file", files.certificateFile), ("key_file", files.keyFile)] {
            guard let path else { continue }
            guard access(path, R_OK) == 0 else {
                throw MQTTError(.invalidConfiguration, "TLS \(name) \(path) cannot be read (\(String(cString: strerror(errno)))); fix the path or its permissions")
            }
        }
        if files.caFile == nil && files.certificateFile == nil {
            // The system's CAs (Debian: /etc/ssl/certs).
            _ = lib.intOption(handle, MOSQ_OPT_TLS_USE_OS_CERTS, 1)
            return
        }
        let caPath: String? = files.caFile == nil ? "/etc/ssl/certs" : nil
        let rc = Self.withOptionalCString(files.caFile) { ca in
            Self.withOptionalCString(caPath) { capath in
                Self.withOptionalCString(files.certificateFile) { cert in
                    Self.withOptionalCString(files.keyFile) { key in lib.tlsSet(handle, ca, capath, cert, key, nil) }
                }
            }
        }
        guard rc == Self.ok else {
            throw MQTTError(.invalidConfiguration, "libmosquitto rejected the TLS files (\(errorText(rc))); check they are PEM files and the key is not encrypted")
        }
    }

    private static func withOptionalCString<R>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
        guard let text else { return body(nil) }
        return text.withCString { body($0) }
    }

    private static func connection(_ object: UnsafeMutableRawPointer?) -> MosquittoConnection? {
        object.map { Unmanaged<MosquittoConnection>.fromOpaque($0).takeUnretainedValue() }
    }

    private func installCallbacks() {
        lib.connectV5CallbackSet(handle) { _, object, code, _, _ in
            MosquittoConnection.connection(object)?.didConnect(code)
        }
        lib.publishV5CallbackSet(handle) { _, object, mid, _, _ in
            MosquittoConnection.connection(object)?.didPublish(mid)
        }
        lib.messageV5CallbackSet(handle) { _, object, message, _ in
            guard let message, let connection = MosquittoConnection.connection(object) else { return }
            let m = message.pointee
            let topic = m.topic.map { String(cString: $0) } ?? ""
            var payload: [UInt8] = []
            if let bytes = m.payload, m.payloadlen > 0 {
                payload = Array(UnsafeRawBufferPointer(start: bytes, count: Int(m.payloadlen)))
            }
            connection.didReceive(MQTTMessage(topic: topic, payload: payload, qos: MQTTQoS(rawValue: m.qos) ?? .atMostOnce, retain: m.retain))
        }
        lib.logCallbackSet(handle) { _, object, level, text in
            guard let text, let connection = MosquittoConnection.connection(object) else { return }
            connection.didLog(level, String(cString: text))
        }
    }

    // MARK: Public operations (any thread)

    /// Starts the network thread (once).
    func start() {
        let first = state.withLock { state in
            defer { state.started = true }
            if !state.started, let birth = configuration.birth { state.cache(birth) }
            return !state.started && !state.stopping
        }
        guard first else { return }
        let thread = Thread { [self] in run() }
        thread.name = "nearby.mqtt"
        thread.start()
    }

    var phase: Phase { state.withLock { $0.phase } }

    var statistics: MQTTStatistics {
        state.withLock { state in
            var statistics = state.statistics
            statistics.queued = state.pending.count + state.inflight.count
            return statistics
        }
    }

    func publish(_ message: MQTTMessage) -> MQTTPublishOutcome {
        enum Route { case drop, queue(dropped: Int, total: Int), send, keep }
        let route: Route = state.withLock { state in
            if state.stopping { return .drop }
            if message.retain { state.cache(message) }
            if message.qos != .atMostOnce && !message.retain {
                var dropped = 0
                if state.pending.count >= configuration.queueLimit {
                    state.pending.removeFirst()
                    state.statistics.droppedQueueFull += 1
                    dropped = 1
                }
                state.pending.append(message)
                return .queue(dropped: dropped, total: state.statistics.droppedQueueFull)
            }
            if state.phase == .connected { return .send }
            if message.retain { return .keep }
            state.statistics.droppedOffline += 1
            return .drop
        }
        switch route {
        case .drop:
            return .dropped
        case .keep:
            return .queued
        case .queue(let dropped, let total):
            if dropped > 0 { broadcaster.yield(.dropped(count: dropped, total: total)) }
            pump()
            return .queued
        case .send:
            let rc = sendTracked(message)
            return state.withLock { state in
                if rc == Self.ok {
                    state.statistics.published += 1
                    if message.retain && message.payload.isEmpty { state.uncache(message) }
                    return .sent
                }
                if message.retain { return .queued }
                state.statistics.droppedOffline += 1
                return .dropped
            }
        }
    }

    func subscribe(_ filter: String, qos: MQTTQoS) {
        let connected = state.withLock { state in
            state.subscriptions.append((filter, qos))
            return state.phase == .connected
        }
        if connected { sendSubscribe(filter, qos: qos) }
    }

    /// Publishes the will's payload (when configured and connected), waits for queued QoS 1
    /// messages to be acknowledged until `timeout`, disconnects and ends the network thread.
    func stop(timeout: Duration) async {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        let (started, connected, again) = state.withLock { state in
            defer { state.stopping = true }
            return (state.started, state.phase == .connected, state.stopping)
        }
        guard started else {
            state.withLock { $0.phase = .stopped }
            return
        }
        if !again {
            if connected, configuration.publishesWillOnStop, var will = configuration.will {
                if will.qos == .atMostOnce { will.qos = .atLeastOnce }
                state.withLock { $0.pending.append(will) }
                pump()
            }
            while clock.now < deadline {
                let drained = state.withLock { $0.phase != .connected || ($0.pending.isEmpty && $0.inflight.isEmpty) }
                if drained { break }
                try? await Task.sleep(for: .milliseconds(10))
            }
            _ = lib.disconnect(handle)
            wakeup.signal()
        }
        let left = clock.now.duration(to: deadline)
        _ = try? await finished.value(timeout: max(left, .milliseconds(200)), operation: "MQTT network thread")
        broadcaster.finish()
    }

    /// Asks the network thread to end without waiting (the client went away).
    func requestStop() {
        let started = state.withLock { state in
            defer { state.stopping = true }
            return state.started && !state.stopping
        }
        guard started else { return }
        _ = lib.disconnect(handle)
        wakeup.signal()
    }

    // MARK: Network thread

    private var isStopping: Bool { state.withLock { $0.stopping } }

    private func run() {
        let c = configuration
        var delay = c.reconnectMinimum
        while !isStopping {
            state.withLock { state in
                state.phase = .connecting
                state.lastLogError = nil
                state.refusal = nil
            }
            let rc = c.broker.host.withCString { lib.connectBindV5(handle, $0, Int32(c.broker.port), Int32(c.keepAlive), nil, connectProperties) }
            let savedErrno = errno
            var failure: MQTTError?
            var wasConnected = false
            if rc != Self.ok {
                failure = connectError(rc, errno: savedErrno)
                state.withLock { $0.phase = .disconnected }
            } else {
                if isStopping { _ = lib.disconnect(handle) }
                var loop = Self.ok
                repeat { loop = lib.loop(handle, 1000, 1) } while loop == Self.ok
                let loopErrno = errno
                let (connected, refusal, stopping) = state.withLock { state in
                    defer {
                        state.phase = .disconnected
                        state.refusal = nil
                    }
                    return (state.phase == .connected, state.refusal, state.stopping)
                }
                wasConnected = connected
                if stopping { break }
                failure = refusal ?? connectError(loop, errno: loopErrno)
            }
            guard let failure else { continue }
            if wasConnected {
                delay = c.reconnectMinimum
                broadcaster.yield(.disconnected(failure, retryIn: delay))
            } else {
                state.withLock { $0.statistics.connectionFailures += 1 }
                broadcaster.yield(.connectionFailed(failure, retryIn: delay))
            }
            logger.debug("mqtt: \(failure); next try in \(delay) s")
            if wakeup.wait(timeout: .now() + .milliseconds(Int(delay * 1000))) == .success, isStopping { break }
            if !wasConnected { delay = min(delay * 2, c.reconnectMaximum) }
        }
        state.withLock { $0.phase = .stopped }
        finished.fulfill(())
    }

    // MARK: Callbacks (network thread)

    private func didConnect(_ code: Int32) {
        guard code == 0 else {
            let error = refusal(code)
            state.withLock { $0.refusal = error }
            return
        }
        let (stopping, retained, subscriptions) = state.withLock { state in
            state.phase = .connected
            state.statistics.connections += 1
            return (state.stopping, state.retainedOrder.compactMap { state.retained[$0] }, state.subscriptions)
        }
        if stopping {
            _ = lib.disconnect(handle)
            return
        }
        var sent = 0
        for message in retained where sendTracked(message) == Self.ok {
            sent += 1
            if message.payload.isEmpty { state.withLock { $0.uncache(message) } }
        }
        for subscription in subscriptions { sendSubscribe(subscription.filter, qos: subscription.qos) }
        state.withLock { $0.statistics.published += sent }
        broadcaster.yield(.connected(broker: configuration.broker.endpoint))
        pump()
    }

    private func didPublish(_ mid: Int32) {
        let acknowledged = handover.withLock { _ in
            state.withLock { state in
                guard state.inflight.removeValue(forKey: mid) != nil else { return false }
                state.statistics.acknowledged += 1
                return true
            }
        }
        if acknowledged { pump() }
    }

    private func didReceive(_ message: MQTTMessage) {
        state.withLock { $0.statistics.received += 1 }
        broadcaster.yield(.message(message))
    }

    private func didLog(_ level: Int32, _ text: String) {
        if level & (MOSQ_LOG_ERR | MOSQ_LOG_WARNING) != 0 {
            state.withLock { $0.lastLogError = text }
            logger.debug("libmosquitto: \(text)")
        } else {
            logger.trace("libmosquitto: \(text)")
        }
    }

    // MARK: Sending

    /// Hands waiting QoS 1 messages to libmosquitto while connected and the window allows.
    private func pump() {
        handover.withLock { _ in
            while true {
                let next: MQTTMessage? = state.withLock { state in
                    guard state.phase == .connected, !state.pending.isEmpty, state.inflight.count < configuration.inflightWindow else { return nil }
                    return state.pending.removeFirst()
                }
                guard let next else { return }
                var mid: Int32 = 0
                let rc = send(next, mid: &mid)
                let handed = state.withLock { state in
                    if rc == Self.ok {
                        state.inflight[mid] = next
                        state.statistics.published += 1
                        return true
                    }
                    state.pending.insert(next, at: 0)
                    return false
                }
                if !handed {
                    logger.debug("mqtt: could not hand over a QoS 1 message: \(errorText(rc))")
                    return
                }
            }
        }
    }

    /// Sends now; a QoS 1 or 2 message is tracked until the broker acknowledges it, so
    /// ``stop(timeout:)`` waits for it: closing the socket while acknowledgements are still
    /// unread makes the kernel reset the connection, and the broker then drops what it had not
    /// read yet.
    private func sendTracked(_ message: MQTTMessage) -> Int32 {
        guard message.qos != .atMostOnce else { return send(message, mid: nil) }
        return handover.withLock { _ in
            var mid: Int32 = 0
            let rc = send(message, mid: &mid)
            if rc == Self.ok { state.withLock { $0.inflight[mid] = message } }
            return rc
        }
    }

    private func send(_ message: MQTTMessage, mid: UnsafeMutablePointer<Int32>?) -> Int32 {
        let properties: OpaquePointer? =
            switch message.format {
            case .bytes: nil
            case .text: textProperties
            case .json: jsonProperties
            }
        return message.topic.withCString { topic in
            message.payload.withUnsafeBytes { payload in
                lib.publishV5(handle, mid, topic, Int32(payload.count), payload.baseAddress, message.qos.rawValue, message.retain, properties)
            }
        }
    }

    private func sendSubscribe(_ filter: String, qos: MQTTQoS) {
        let rc = filter.withCString { lib.subscribeV5(handle, nil, $0, qos.rawValue, 0, nil) }
        if rc != Self.ok { logger.warning("mqtt: could not subscribe to '\(filter)': \(errorText(rc))") }
    }

    // MARK: Errors

    private func errorText(_ rc: Int32) -> String { lib.strerror(rc).map { String(cString: $0) } ?? "error \(rc)" }

    private var lastLogError: String? { state.withLock { $0.lastLogError } }

    private func connectError(_ rc: Int32, errno saved: Int32) -> MQTTError {
        let broker = configuration.broker
        let endpoint = broker.endpoint
        switch rc {
        case MOSQ_ERR_EAI.rawValue:
            return MQTTError(.unknownHost, "cannot resolve the broker's host name '\(broker.host)'; check the URL and the DNS")
        case MOSQ_ERR_ERRNO.rawValue:
            if saved == ECONNREFUSED {
                return MQTTError(.network, "cannot connect to \(endpoint): connection refused (is the broker running and listening on port \(broker.port)?)")
            }
            if saved == 0 || saved == EPROTO {
                return MQTTError(.network, "the connection to \(endpoint) was closed")
            }
            return MQTTError(.network, "cannot reach \(endpoint): \(String(cString: strerror(saved)))")
        case MOSQ_ERR_TLS.rawValue, MOSQ_ERR_TLS_HANDSHAKE.rawValue:
            let detail = lastLogError.map { ": \($0)" } ?? ""
            return MQTTError(
                .tls,
                "TLS with \(endpoint) failed\(detail); check that the CA file signed the broker's certificate, that the certificate names '\(broker.host)', and the client certificate and key")
        case MOSQ_ERR_CONN_LOST.rawValue, MOSQ_ERR_NO_CONN.rawValue:
            return MQTTError(.network, "the connection to \(endpoint) was lost")
        case MOSQ_ERR_KEEPALIVE.rawValue:
            return MQTTError(.network, "the broker at \(endpoint) stopped answering (keepalive timeout)")
        case MOSQ_ERR_PROTOCOL.rawValue, MOSQ_ERR_MALFORMED_PACKET.rawValue:
            return MQTTError(.protocolError, "the broker at \(endpoint) broke the MQTT protocol (\(errorText(rc))); is it an MQTT broker speaking \(configuration.protocolVersion)?")
        default:
            return MQTTError(.library, "\(endpoint): \(errorText(rc))")
        }
    }

    private func refusal(_ code: Int32) -> MQTTError {
        let c = configuration
        let endpoint = c.broker.endpoint
        let v5 = c.protocolVersion == .v5
        let user = c.effectiveUsername.map { "user '\($0)'" } ?? "no user name"
        let reason = (v5 ? lib.reasonString(code) : lib.connackString(code)).map { String(cString: $0) } ?? "reason \(code)"
        switch (v5, code) {
        case (false, 4), (true, Int32(MQTT_RC_BAD_USERNAME_OR_PASSWORD.rawValue)):
            return MQTTError(.badCredentials, "the broker at \(endpoint) refused the login (\(user)): bad user name or password")
        case (false, 5), (true, Int32(MQTT_RC_NOT_AUTHORIZED.rawValue)):
            // Mosquitto answers "not authorised" to a wrong password too.
            if c.password != nil {
                return MQTTError(
                    .badCredentials,
                    "the broker at \(endpoint) refused the login (\(user)): not authorised; the user name or password is wrong, or this user may not connect")
            }
            return MQTTError(
                .notAuthorized,
                "the broker at \(endpoint) refused the connection (\(user)): not authorised; it wants a user name and password (set them, or allow anonymous clients on the broker)")
        case (false, 1), (true, Int32(MQTT_RC_UNSUPPORTED_PROTOCOL_VERSION.rawValue)):
            return MQTTError(.refused, "the broker at \(endpoint) does not accept \(c.protocolVersion); choose the other protocol version")
        default:
            return MQTTError(.refused, "the broker at \(endpoint) refused the connection: \(reason) (code \(code))")
        }
    }
}
