public import Foundation
import Synchronization

/// A child process for tests: a peer (Bumble, umockdev emulator) or the `nearby` executable.
///
/// Captures stdout and stderr, can wait for a line, and is terminated (SIGTERM, then SIGKILL) when
/// the test ends. Each test starts its own peer on its own port.
///
/// Started with `posix_spawn` (every signal at its default, none blocked, standard input
/// `/dev/null`); a thread per pipe reads the output and one thread waits for the exit. Not
/// Foundation's `Process`: on Linux its run-loop sources and `readabilityHandler`s once crashed
/// the whole test process under load ("__NSCFType deallocated with non-zero retain count").
public final class ChildProcess: @unchecked Sendable {
    private let output = OutputBuffer()
    private let exit = ExitBox()
    /// The command line, for messages.
    public let commandLine: String
    /// The process identifier.
    public let pid: Int32

    private struct ExitState {
        /// The exit status (or the signal that ended it), once it was waited for.
        var status: Int32?
        /// Pipes whose reader has not reached end of file.
        var openPipes = 2
    }

    private final class ExitBox: Sendable {
        let state = Mutex(ExitState())
    }

    /// Starts `executable` with `arguments`; `environment` entries are added to this process's.
    /// - Throws: ``ChildProcessError`` when it cannot be started (naming the path and why).
    public init(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) throws {
        commandLine = ([executable.path] + arguments).joined(separator: " ")
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }

        var out: [Int32] = [-1, -1]
        var err: [Int32] = [-1, -1]
        guard Self.pipe2(&out, O_CLOEXEC) == 0 else { throw ChildProcessError("pipe2: \(String(cString: strerror(errno)))") }
        guard Self.pipe2(&err, O_CLOEXEC) == 0 else {
            close(out[0]); close(out[1])
            throw ChildProcessError("pipe2: \(String(cString: strerror(errno)))")
        }
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, null, 0)
        posix_spawn_file_actions_adddup2(&actions, out[1], 1)
        posix_spawn_file_actions_adddup2(&actions, err[1], 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in Int32(1)..<32 where signal != SIGKILL && signal != SIGSTOP { sigaddset(&defaults, signal) }
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var child: pid_t = 0
        let started = posix_spawn(&child, executable.path, &actions, &attributes, argv, envp)
        close(out[1])
        close(err[1])
        if null >= 0 { close(null) }
        guard started == 0 else {
            close(out[0])
            close(err[0])
            throw ChildProcessError("cannot start \(executable.path): \(String(cString: strerror(started)))")
        }
        pid = child
        Self.read(out[0], stderr: false, output: output, exit: exit)
        Self.read(err[0], stderr: true, output: output, exit: exit)
        Self.wait(for: child, exit: exit)
    }

    /// glibc's `pipe2` (not in Swift's Glibc module): both ends close-on-exec from the start, so
    /// a process another test spawns at the same moment never inherits them (it would hold the
    /// pipe open and delay its end of file).
    private static let pipe2: @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32 = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pipe2") else { fatalError("glibc has no pipe2") }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32).self)
    }()

    /// A thread that reads `fd` to its end into `output`.
    ///
    /// The thread only waits (`poll`) without the lock; every `read` happens under
    /// `output`'s lock, the same lock ``stdout`` / ``stderr`` take to drain the pipe themselves.
    /// So whatever the child wrote before an event the test has seen (a peer prints its line,
    /// flushed, before it answers over the radio or D-Bus) is in what ``stdout`` returns: no
    /// window where the bytes were read but not yet appended.
    private static func read(_ fd: Int32, stderr: Bool, output: OutputBuffer, exit: ExitBox) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        output.state.withLock { if stderr { $0.stderrFD = fd } else { $0.stdoutFD = fd } }
        Thread.detachNewThread {
            var waiting = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            while true {
                let ready = poll(&waiting, 1, -1)
                if ready < 0 && errno == EINTR { continue }
                // poll failing otherwise: read what is there, then close as at the end of file.
                let open = output.state.withLock { state in
                    state.drain(stderr: stderr, closing: true, atEnd: ready < 0)
                    return (stderr ? state.stderrFD : state.stdoutFD) >= 0
                }
                if !open { break }
            }
            exit.state.withLock { $0.openPipes -= 1 }
        }
    }

    /// A thread that waits for `pid` to exit and keeps its status (Foundation's convention: the
    /// exit code, or the number of the signal that ended it).
    private static func wait(for pid: pid_t, exit: ExitBox) {
        Thread.detachNewThread {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1, errno == EINTR {}
            let code = status & 0x7F == 0 ? (status >> 8) & 0xFF : status & 0x7F
            exit.state.withLock { $0.status = code }
        }
    }

    /// Everything the process wrote to stdout so far, including what is still in the pipe.
    public var stdout: String {
        output.state.withLock {
            $0.drain(stderr: false)
            return String(decoding: $0.stdout, as: UTF8.self)
        }
    }
    /// Everything the process wrote to stderr so far, including what is still in the pipe.
    public var stderr: String {
        output.state.withLock {
            $0.drain(stderr: true)
            return String(decoding: $0.stderr, as: UTF8.self)
        }
    }
    /// The stdout lines that start with `prefix` (peers report events as `EVENT key=value` lines),
    /// including what is still in the pipe.
    public func lines(startingWith prefix: String) -> [String] {
        stdout.split(separator: "\n").map(String.init).filter { $0.hasPrefix(prefix) }
    }
    /// `true` while the process runs.
    public var isRunning: Bool { exit.state.withLock { $0.status == nil } }

    /// Waits until stdout and stderr together contain `text` `count` times. The default timeout
    /// only bounds a failure (a loaded machine once stalled every process for about 20 s at the
    /// start of a run).
    /// - Throws: if the process exits first or `timeout` passes; the message holds its output.
    public func waitForOutput(_ text: String, count: Int = 1, timeout: Duration = .seconds(60)) async throws {
        func seen() -> Bool { stdout.components(separatedBy: text).count + stderr.components(separatedBy: text).count - 2 >= count }
        let what = count == 1 ? "\"\(text)\"" : "\"\(text)\" \(count) times"
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while clock.now < deadline {
            if seen() { return }
            if let status = exit.state.withLock({ $0.status }) {
                await waitForPipes(until: clock.now.advanced(by: .seconds(2)))
                if seen() { return }
                throw ChildProcessError("\(commandLine) exited (status \(status)) before printing \(what)\nstdout:\n\(stdout)\nstderr:\n\(stderr)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw ChildProcessError("\(commandLine) did not print \(what) within \(timeout)\nstdout:\n\(stdout)\nstderr:\n\(stderr)")
    }

    /// Waits for the process to exit and returns its status.
    /// - Throws: if it runs longer than `timeout` (it is then killed).
    @discardableResult
    public func waitForExit(timeout: Duration = .seconds(60)) async throws -> Int32 {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while true {
            if let status = exit.state.withLock({ $0.status }) {
                // The rest of the output: the pipes reach their end once every process holding
                // them (a grandchild may) is gone; bounded so a stray grandchild cannot hang a test.
                await waitForPipes(until: clock.now.advanced(by: .seconds(10)))
                return status
            }
            if clock.now >= deadline {
                terminate()
                throw ChildProcessError("\(commandLine) still running after \(timeout); killed\nstdout:\n\(stdout)\nstderr:\n\(stderr)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    private func waitForPipes(until deadline: ContinuousClock.Instant) async {
        while exit.state.withLock({ $0.openPipes > 0 }), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Sends SIGTERM now; a reaper off the cooperative pool sends SIGKILL if the process still
    /// runs 2 s later. Returns at once: tests call this from `defer` and `deinit` inside async
    /// code, where a blocking wait would hold one of the pool's few threads (2 on a 2-core
    /// machine) and stall every other test meanwhile. Use ``waitForExit(timeout:)`` to know the
    /// process has ended.
    public func terminate() {
        guard isRunning else { return }
        kill(pid, SIGTERM)
        let (pid, exit) = (self.pid, self.exit)
        Self.reaper.async {
            let deadline = Date().addingTimeInterval(2)
            while exit.state.withLock({ $0.status == nil }) && Date() < deadline { usleep(10_000) }
            if exit.state.withLock({ $0.status == nil }) { kill(pid, SIGKILL) }
        }
    }

    /// Where terminated processes are watched (never the cooperative pool).
    private static let reaper = DispatchQueue(label: "nearby.tests.child-reaper", attributes: .concurrent)

    /// Sends a signal (e.g. SIGINT to let a CLI shut down cleanly); nothing once it has exited.
    public func signal(_ signal: Int32) {
        guard isRunning else { return }
        kill(pid, signal)
    }

    deinit { terminate() }

    /// Runs a command to completion and returns (status, stdout, stderr).
    ///
    /// At most ``RunSlots/limit`` of these run at once across the whole test process (the
    /// `timeout` starts when the command does): the CLI suites would otherwise start dozens of
    /// `nearby` processes in the same second, and on 2 cores that starves every timing-sensitive
    /// test running beside them.
    public static func run(_ executable: URL, _ arguments: [String], environment: [String: String] = [:],
                           timeout: Duration = .seconds(60)) async throws -> (status: Int32, stdout: String, stderr: String) {
        await RunSlots.shared.acquire()
        defer { Task { await RunSlots.shared.release() } }
        let child = try ChildProcess(executable, arguments, environment: environment)
        let status = try await child.waitForExit(timeout: timeout)
        return (status, child.stdout, child.stderr)
    }
}

/// A counting semaphore for ``ChildProcess/run(_:_:environment:timeout:)``: first come, first served.
public actor RunSlots {
    /// Commands that may run at once: twice the processor count, at least 4.
    public static let limit = max(4, 2 * ProcessInfo.processInfo.activeProcessorCount)
    /// The one instance the test process shares.
    public static let shared = RunSlots(limit)

    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(_ count: Int) { free = count }

    /// Waits for a free slot and takes it.
    public func acquire() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Gives a slot back (to the longest waiter, if any).
    public func release() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}

final class OutputBuffer: Sendable {
    let state = Mutex(OutputState())
}

/// A child's output so far and the pipes it still comes through (non-blocking read ends; -1 once
/// at their end and closed). Read only under ``OutputBuffer/state``'s lock.
struct OutputState {
    var stdout: [UInt8] = []
    var stderr: [UInt8] = []
    var stdoutFD: Int32 = -1
    var stderrFD: Int32 = -1

    /// Reads everything the pipe holds now. At its end (or on an error, or `atEnd`) the reader
    /// thread (`closing`) closes it; anyone else leaves that to the thread, which may be polling it.
    mutating func drain(stderr: Bool, closing: Bool = false, atEnd: Bool = false) {
        let fd = stderr ? stderrFD : stdoutFD
        guard fd >= 0 else { return }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                if stderr { self.stderr.append(contentsOf: chunk[0..<count]) } else { stdout.append(contentsOf: chunk[0..<count]) }
            } else if count < 0 && errno == EINTR {
                continue
            } else if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && !(closing && atEnd) {
                return
            } else {
                guard closing else { return }
                close(fd)
                if stderr { stderrFD = -1 } else { stdoutFD = -1 }
                return
            }
        }
    }
}

/// A child process misbehaved; the message carries its output.
public struct ChildProcessError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// A TCP port that is free on 127.0.0.1 and was handed to no other caller in this process.
///
/// The port comes from below the kernel's ephemeral range (`ip_local_port_range`), not from
/// `bind(0)`: a port the kernel hands out for `bind(0)` is an ephemeral port, and between this
/// call and the child's own `bind` any outgoing connection on the machine may take it as its
/// source port (CI once saw a Bumble peer fail with EADDRINUSE that way). Ports below the range
/// are taken only by listeners, and this process never hands the same one out twice.
public func freeTCPPort() throws -> Int {
    let low = ephemeralPortRangeStart()
    let range = max(1025, low - 12_000)..<max(1026, low)
    for _ in 0..<200 {
        let port = Int.random(in: range)
        let fresh = handedOutPorts.withLock { $0.insert(port).inserted }
        if fresh, portIsFree(port) { return port }
    }
    throw ChildProcessError("no free TCP port in \(range) on 127.0.0.1 after 200 tries")
}

private let handedOutPorts = Mutex<Set<Int>>([])

/// The first port of the kernel's ephemeral range (32768 when it cannot be read).
private func ephemeralPortRangeStart() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8),
          let first = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).first,
          let value = Int(first) else { return 32768 }
    return value
}

/// Whether a listener could bind `port` on 127.0.0.1 now.
private func portIsFree(_ port: Int) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_port = in_port_t(UInt16(port).bigEndian)
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    return bound == 0
}
