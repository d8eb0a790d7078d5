import CSDBus
import Foundation
import NearbyBase
import NearbySupport
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A connection to a D-Bus bus through sd-bus (libsystemd), with its own thread.
///
/// sd-bus objects may be used by one thread at a time, so every sd-bus call happens on the
/// connection's thread: it polls the bus socket and an eventfd, runs queued jobs, and calls
/// `sd_bus_process`. Nothing here blocks Swift's cooperative threads (the MQTT client runs
/// libmosquitto the same way). Method calls are asynchronous (`sd_bus_call_async`) with a
/// timeout; replies resume the caller. Signal handlers and exported objects' handlers run on
/// the connection's thread and must return quickly (hand the work to a task or a stream).
///
/// The system bus is the one `DBUS_SYSTEM_BUS_ADDRESS` names when it is set (sd-bus reads it),
/// else `/run/dbus/system_bus_socket`: tests run a private `dbus-daemon`.
public final class DBusConnection: @unchecked Sendable {
    // @unchecked: `bus` is touched on the connection's thread only; shared state is in Mutexes.

    /// Which bus.
    public enum Bus: Sendable, Hashable, CustomStringConvertible {
        /// The system bus (`DBUS_SYSTEM_BUS_ADDRESS`, else `unix:path=/run/dbus/system_bus_socket`).
        case system
        /// A bus at a D-Bus address (`unix:path=/tmp/bus`).
        case address(String)

        /// `the system bus (unix:path=...)` or the address.
        public var description: String {
            switch self {
            case .system:
                let address = ProcessInfo.processInfo.environment["DBUS_SYSTEM_BUS_ADDRESS"] ?? "unix:path=/run/dbus/system_bus_socket"
                return "the system bus (\(address))"
            case .address(let address): return address
            }
        }
    }

    typealias Job = @Sendable (OpaquePointer?) -> Void

    private struct State {
        var jobs: [Job] = []
        var closed: DBusError?
        var closeHandlers: [@Sendable (DBusError) -> Void] = []
        var retained: [AnyObject] = []
    }

    /// The bus.
    public let bus: Bus
    /// This connection's unique name (`:1.42`).
    public private(set) var uniqueName = ""
    private let state = Mutex(State())
    /// The wake-up pipe: written by ``enqueue(_:)``, polled by the connection's thread.
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let opened = Promise<String>()

    private init(bus: Bus) throws(DBusError) {
        _ = try SDBusLibrary.load()
        self.bus = bus
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw DBusError(errno: errno, operation: "pipe") }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        wakeRead = fds[0]
        wakeWrite = fds[1]
    }

    deinit {
        Glibc.close(wakeRead)
        Glibc.close(wakeWrite)
    }

    /// Connects to `bus` and starts the connection's thread.
    /// - Throws: ``DBusError`` with the errno of the failure (ENOENT: no bus socket; ECONNREFUSED:
    ///   nobody listens; EACCES: not allowed to connect), or named ``DBusError/libraryMissing``
    ///   when libsystemd (sd-bus, opened here at first use) is not installed.
    public static func open(_ bus: Bus = .system) async throws(DBusError) -> DBusConnection {
        let connection = try DBusConnection(bus: bus)
        let thread = Thread { connection.run() }
        thread.name = "nearby.dbus"
        thread.start()
        do {
            connection.uniqueName = try await connection.opened.value()
        } catch let error as DBusError {
            throw error
        } catch {
            throw DBusError(name: DBusError.closed, message: "\(error)")
        }
        return connection
    }

    /// `true` once the connection ended (closed, or the bus went away).
    public var isClosed: Bool { state.withLock { $0.closed != nil } }

    /// Calls `handler` once when the connection ends (at once if it has).
    public func onClose(_ handler: @escaping @Sendable (DBusError) -> Void) {
        let closed: DBusError? = state.withLock { state in
            if let closed = state.closed { return closed }
            state.closeHandlers.append(handler)
            return nil
        }
        if let closed { handler(closed) }
    }

    /// Ends the connection: pending calls fail, the thread ends. Idempotent.
    public func close() {
        enqueue { _ in throw CloseRequest() }
    }

    private struct CloseRequest: Error {}

    // MARK: Calls

    /// Calls `member` of `interface` on `path` at `destination`.
    /// - Returns: the reply's values (file descriptors in it are the caller's to close).
    /// - Throws: the error reply as ``DBusError`` (its name, e.g. `org.bluez.Error.Failed`),
    ///   `org.freedesktop.DBus.Error.NoReply` after `timeout`, ``DBusError/closed`` once closed.
    public func call(_ destination: String, _ path: String, _ interface: String, _ member: String, _ arguments: [DBusValue] = [],
                     timeout: Duration = .seconds(25)) async throws(DBusError) -> [DBusValue] {
        let result: Result<[DBusValue], DBusError> = await withCheckedContinuation { continuation in
            let box = ReplyBox(continuation)
            enqueue { bus in
                guard let bus else { return box.resume(.failure(DBusError(name: DBusError.closed, message: "the D-Bus connection is closed"))) }
                var message: OpaquePointer?
                var r = sdBus.messageNewMethodCall(bus, &message, destination, path, interface, member)
                guard r >= 0, let message else {
                    return box.resume(.failure(DBusError(errno: -r, operation: "\(interface).\(member) on \(path)")))
                }
                defer { _ = sdBus.messageUnref(message) }
                do throws(DBusError) {
                    try DBusMessageCodec.append(arguments, to: message)
                } catch {
                    return box.resume(.failure(error))
                }
                let userdata = Unmanaged.passRetained(box).toOpaque()
                let microseconds = UInt64(max(1, timeout.inSeconds * 1_000_000))
                r = sdBus.callAsync(bus, nil, message, { reply, userdata, _ in
                    let box = Unmanaged<ReplyBox>.fromOpaque(userdata!).takeRetainedValue()
                    guard let reply else {
                        box.resume(.failure(DBusError(name: DBusError.closed, message: "no reply")))
                        return 0
                    }
                    box.resume(DBusConnection.decodeReply(reply))
                    return 0
                }, userdata, microseconds)
                if r < 0 {
                    Unmanaged<ReplyBox>.fromOpaque(userdata).release()
                    box.resume(.failure(DBusError(errno: -r, operation: "\(interface).\(member) on \(path)")))
                }
            }
        }
        return try result.get()
    }

    static func decodeReply(_ reply: OpaquePointer) -> Result<[DBusValue], DBusError> {
        if sdBus.messageIsMethodError(reply, nil) > 0 {
            let error = sdBus.messageGetError(reply)
            let name = error?.pointee.name.map { String(cString: $0) } ?? "org.freedesktop.DBus.Error.Failed"
            let message = error?.pointee.message.map { String(cString: $0) } ?? ""
            return .failure(DBusError(name: name, message: message))
        }
        do {
            return .success(try DBusMessageCodec.readAll(reply))
        } catch {
            return .failure(error)
        }
    }

    final class ReplyBox: @unchecked Sendable {
        private let continuation: CheckedContinuation<Result<[DBusValue], DBusError>, Never>
        private let done = Mutex(false)
        init(_ continuation: CheckedContinuation<Result<[DBusValue], DBusError>, Never>) { self.continuation = continuation }
        func resume(_ result: Result<[DBusValue], DBusError>) {
            let first = done.withLock { done in
                defer { done = true }
                return !done
            }
            if first {
                continuation.resume(returning: result)
            } else if case .success(let values) = result {
                DBusMessageCodec.closeDescriptors(values)
            }
        }
    }

    // MARK: Signals

    /// Calls `handler` for every message matching `rule` (a D-Bus match rule:
    /// `type='signal',sender='org.bluez',interface='org.freedesktop.DBus.Properties'`), on the
    /// connection's thread, for as long as the connection lives.
    /// - Throws: ``DBusError`` if the bus refuses the rule.
    public func subscribe(_ rule: String, handler: @escaping @Sendable (DBusMessageInfo) -> Void) async throws(DBusError) {
        let box = SignalBox(handler)
        let result: Result<Void, DBusError> = await withCheckedContinuation { continuation in
            enqueue { bus in
                guard let bus else {
                    return continuation.resume(returning: .failure(DBusError(name: DBusError.closed, message: "the D-Bus connection is closed")))
                }
                let userdata = Unmanaged.passUnretained(box).toOpaque()
                let r = sdBus.addMatch(bus, nil, rule, { message, userdata, _ in
                    guard let message, let userdata else { return 0 }
                    let box = Unmanaged<SignalBox>.fromOpaque(userdata).takeUnretainedValue()
                    if let info = DBusMessageInfo(message) { box.handler(info) }
                    return 0
                }, userdata)
                if r < 0 {
                    continuation.resume(returning: .failure(DBusError(errno: -r, operation: "AddMatch \(rule)")))
                } else {
                    self.state.withLock { $0.retained.append(box) }
                    continuation.resume(returning: .success(()))
                }
            }
        }
        try result.get()
    }

    final class SignalBox: Sendable {
        let handler: @Sendable (DBusMessageInfo) -> Void
        init(_ handler: @escaping @Sendable (DBusMessageInfo) -> Void) { self.handler = handler }
    }

    /// Sends a signal.
    public func emit(path: String, interface: String, member: String, _ values: [DBusValue]) {
        enqueue { bus in
            guard let bus else { return }
            var message: OpaquePointer?
            guard sdBus.messageNewSignal(bus, &message, path, interface, member) >= 0, let message else { return }
            defer { _ = sdBus.messageUnref(message) }
            guard (try? DBusMessageCodec.append(values, to: message)) != nil else { return }
            _ = sdBus.send(bus, message, nil)
        }
    }

    // MARK: Exported objects

    /// Serves method calls to `prefix` and every path below it: `handler` gets each call on the
    /// connection's thread and must answer it (``DBusIncomingCall/reply(_:thenClose:)`` or
    /// ``DBusIncomingCall/fail(_:_:)``), now or later from any thread.
    /// - Throws: ``DBusError`` if sd-bus refuses the path.
    public func export(_ prefix: String, handler: @escaping @Sendable (DBusIncomingCall) -> Void) async throws(DBusError) {
        let box = ExportBox(connection: self, handler: handler)
        let result: Result<Void, DBusError> = await withCheckedContinuation { continuation in
            enqueue { bus in
                guard let bus else {
                    return continuation.resume(returning: .failure(DBusError(name: DBusError.closed, message: "the D-Bus connection is closed")))
                }
                let userdata = Unmanaged.passUnretained(box).toOpaque()
                let r = sdBus.addFallback(bus, nil, prefix, { message, userdata, _ in
                    guard let message, let userdata else { return 0 }
                    let box = Unmanaged<ExportBox>.fromOpaque(userdata).takeUnretainedValue()
                    guard let connection = box.connection, let info = DBusMessageInfo(message), info.isMethodCall else { return 0 }
                    box.handler(DBusIncomingCall(info: info, message: message, connection: connection))
                    return 1
                }, userdata)
                if r < 0 {
                    continuation.resume(returning: .failure(DBusError(errno: -r, operation: "export \(prefix)")))
                } else {
                    self.state.withLock { $0.retained.append(box) }
                    continuation.resume(returning: .success(()))
                }
            }
        }
        try result.get()
    }

    final class ExportBox: @unchecked Sendable {
        weak var connection: DBusConnection?
        let handler: @Sendable (DBusIncomingCall) -> Void
        init(connection: DBusConnection, handler: @escaping @Sendable (DBusIncomingCall) -> Void) {
            self.connection = connection
            self.handler = handler
        }
    }

    // MARK: The thread

    /// Runs `job` on the connection's thread (with `nil` once the connection is closed).
    func enqueue(_ job: @escaping @Sendable (OpaquePointer?) throws -> Void) {
        let closed: Bool = state.withLock { state in
            guard state.closed == nil else { return true }
            state.jobs.append({ bus in
                do {
                    try job(bus)
                } catch {
                    if bus != nil { self.requestStop() }
                }
            })
            return false
        }
        if closed {
            try? job(nil)
            return
        }
        var one: UInt8 = 1
        _ = write(wakeWrite, &one, 1)
    }

    private let stopRequested = Atomic<Bool>(false)

    private func requestStop() {
        stopRequested.store(true, ordering: .relaxed)
    }

    private func openBus() -> (OpaquePointer?, Int32) {
        var bus: OpaquePointer?
        switch self.bus {
        case .system:
            let r = sdBus.openSystem(&bus)
            return (r < 0 ? nil : bus, r)
        case .address(let address):
            var r = sdBus.new(&bus)
            guard r >= 0, let created = bus else { return (nil, r) }
            r = sdBus.setAddress(created, address)
            if r >= 0 { r = sdBus.setBusClient(created, 1) }
            if r >= 0 { r = sdBus.negotiateFds(created, 1) }
            if r >= 0 { r = sdBus.start(created) }
            if r < 0 {
                _ = sdBus.unref(created)
                return (nil, r)
            }
            return (created, r)
        }
    }

    private func run() {
        let (opened, r) = openBus()
        guard let bus = opened else {
            let error = DBusError(errno: -r, operation: "connecting to \(self.bus)")
            finish(error)
            _ = self.opened.fail(error)
            return
        }
        // Wait until the Hello reply gave us a name (sd_bus_start is asynchronous).
        var unique: UnsafePointer<CChar>?
        var closedBy: DBusError?
        while true {
            let r = sdBus.getUniqueName(bus, &unique)
            if r >= 0 { break }
            if r != -EBUSY && r != -ENODATA && r != -ENOTCONN {
                closedBy = DBusError(errno: -r, operation: "connecting to \(self.bus)")
                break
            }
            let processed = sdBus.process(bus, nil)
            if processed < 0 {
                closedBy = DBusError(errno: -processed, operation: "connecting to \(self.bus)")
                break
            }
            if processed == 0 { _ = sdBus.wait(bus, 100_000) }
        }
        if let closedBy {
            _ = self.opened.fail(closedBy)
            finish(closedBy)
            _ = sdBus.flushCloseUnref(bus)
            return
        }
        _ = self.opened.fulfill(unique.map { String(cString: $0) } ?? "")

        var ended: DBusError?
        while ended == nil {
            let jobs = state.withLock { state in
                defer { state.jobs.removeAll() }
                return state.jobs
            }
            for job in jobs { job(bus) }
            if stopRequested.load(ordering: .relaxed) {
                ended = DBusError(name: DBusError.closed, message: "the D-Bus connection was closed")
                break
            }
            var processed: Int32 = 0
            repeat {
                processed = sdBus.process(bus, nil)
            } while processed > 0
            if processed < 0 {
                ended = DBusError(name: DBusError.closed, message: "the connection to \(self.bus) ended (\(String(cString: strerror(-processed))))")
                break
            }
            var fds = [
                pollfd(fd: sdBus.getFd(bus), events: Int16(truncatingIfNeeded: sdBus.getEvents(bus)), revents: 0),
                pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
            ]
            var timeout: Int32 = -1
            var deadline: UInt64 = 0
            if sdBus.getTimeout(bus, &deadline) > 0, deadline != UInt64.max {
                var now = timespec()
                clock_gettime(CLOCK_MONOTONIC, &now)
                let nowUS = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
                timeout = deadline <= nowUS ? 0 : Int32(min(UInt64(Int32.max), (deadline - nowUS + 999) / 1000))
            }
            _ = poll(&fds, 2, timeout)
            if fds[1].revents & Int16(POLLIN) != 0 {
                var drain = [UInt8](repeating: 0, count: 64)
                while read(wakeRead, &drain, drain.count) > 0 {}
            }
        }
        let error = ended ?? DBusError(name: DBusError.closed, message: "closed")
        let leftover = finish(error)
        for job in leftover { job(nil) }
        _ = sdBus.flushCloseUnref(bus)
    }

    /// Marks the connection closed and calls the close handlers; returns the jobs left.
    @discardableResult
    private func finish(_ error: DBusError) -> [Job] {
        let (handlers, jobs): ([@Sendable (DBusError) -> Void], [Job]) = state.withLock { state in
            state.closed = state.closed ?? error
            defer {
                state.closeHandlers.removeAll()
                state.jobs.removeAll()
            }
            return (state.closeHandlers, state.jobs)
        }
        for handler in handlers { handler(error) }
        return jobs
    }
}

/// What a received message says: its kind, addressing and body.
public struct DBusMessageInfo: Sendable {
    /// A method call (else a signal, a reply or an error).
    public var isMethodCall: Bool
    /// The object path.
    public var path: String
    /// The interface.
    public var interface: String
    /// The member (method or signal name).
    public var member: String
    /// The sender's unique name.
    public var sender: String
    /// The body.
    public var arguments: [DBusValue]

    init?(_ message: OpaquePointer) {
        var type: UInt8 = 0
        _ = sdBus.messageGetType(message, &type)
        isMethodCall = type == 1
        path = sdBus.messageGetPath(message).map { String(cString: $0) } ?? ""
        interface = sdBus.messageGetInterface(message).map { String(cString: $0) } ?? ""
        member = sdBus.messageGetMember(message).map { String(cString: $0) } ?? ""
        sender = sdBus.messageGetSender(message).map { String(cString: $0) } ?? ""
        guard let arguments = try? DBusMessageCodec.readAll(message) else { return nil }
        self.arguments = arguments
        _ = sdBus.messageRewind(message, 1)
    }
}

/// A method call to an exported object: answer it once with ``reply(_:thenClose:)`` or ``fail(_:_:)``
/// (from any thread). One never answered gets `org.freedesktop.DBus.Error.NoReply` at the
/// caller after its timeout.
public final class DBusIncomingCall: Sendable {
    /// What was called, with its arguments.
    public let info: DBusMessageInfo
    private let message: Mutex<UnsafeSendablePointer?>
    private weak let connection: DBusConnection?

    init(info: DBusMessageInfo, message: OpaquePointer, connection: DBusConnection) {
        self.info = info
        self.message = Mutex(sdBus.messageRef(message).map(UnsafeSendablePointer.init))
        self.connection = connection
    }

    deinit {
        guard let pointer = message.withLock({ $0 }) else { return }
        // Unanswered: release the message on the connection's thread.
        connection?.enqueue { _ in _ = sdBus.messageUnref(pointer.value) }
    }

    /// Replies with `values`; `descriptors` (file descriptors among them that this program
    /// does not keep) are closed once sd-bus has copied them into the reply.
    public func reply(_ values: [DBusValue] = [], thenClose descriptors: [Int32] = []) {
        guard let pointer = message.withLock({ m in defer { m = nil }; return m }) else {
            for fd in descriptors { Glibc.close(fd) }
            return
        }
        guard let connection else {
            for fd in descriptors { Glibc.close(fd) }
            return
        }
        connection.enqueue { bus in
            defer {
                _ = sdBus.messageUnref(pointer.value)
                for fd in descriptors { Glibc.close(fd) }
            }
            guard let bus else { return }
            var reply: OpaquePointer?
            guard sdBus.messageNewMethodReturn(pointer.value, &reply) >= 0, let reply else { return }
            defer { _ = sdBus.messageUnref(reply) }
            guard (try? DBusMessageCodec.append(values, to: reply)) != nil else { return }
            _ = sdBus.send(bus, reply, nil)
        }
    }

    /// Replies with the error `name` (`org.bluez.Error.Rejected`) and `message`.
    public func fail(_ name: String, _ text: String) {
        guard let pointer = message.withLock({ m in defer { m = nil }; return m }) else { return }
        guard let connection else { return }
        connection.enqueue { _ in
            defer { _ = sdBus.messageUnref(pointer.value) }
            var error = sd_bus_error()
            _ = sdBus.errorSet(&error, name, text)
            _ = sdBus.replyMethodError(pointer.value, &error)
            sdBus.errorFree(&error)
        }
    }
}

/// An sd-bus pointer handed to the connection's thread.
struct UnsafeSendablePointer: @unchecked Sendable {
    let value: OpaquePointer
    init(_ value: OpaquePointer) { self.value = value }
}
