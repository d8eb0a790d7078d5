public import Foundation
import Synchronization

/// A child process for tests: a peer (Bumble, umockdev emulator) or the `nearby` executable.
///
/// Captures stdout and stderr, can wait for a line, and is terminated (SIGTERM, then SIGKILL) when
/// the test ends. Each test starts its own peer on its own port.
public final class ChildProcess: @unchecked Sendable {
    private let process = Process()
    private let output = OutputBuffer()
    private let outPipe = Pipe()
    private let errPipe = Pipe()
    /// The command line, for messages.
    public let commandLine: String

    /// Starts `executable` with `arguments`; `environment` entries are added to this process's.
    public init(_ executable: URL, _ arguments: [String], environment: [String: String] = [:],
                currentDirectory: URL? = nil) throws {
        process.executableURL = executable
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = FileHandle.nullDevice
        commandLine = ([executable.path] + arguments).joined(separator: " ")
        outPipe.fileHandleForReading.readabilityHandler = { [output] handle in
            let data = handle.availableData
            output.state.withLock { $0.stdout.append(contentsOf: data) }
        }
        errPipe.fileHandleForReading.readabilityHandler = { [output] handle in
            let data = handle.availableData
            output.state.withLock { $0.stderr.append(contentsOf: data) }
        }
        try process.run()
    }

    /// Everything the process wrote to stdout so far.
    public var stdout: String { output.state.withLock { String(decoding: $0.stdout, as: UTF8.self) } }
    /// Everything the process wrote to stderr so far.
    public var stderr: String { output.state.withLock { String(decoding: $0.stderr, as: UTF8.self) } }
    /// The process identifier.
    public var pid: Int32 { process.processIdentifier }
    /// `true` while the process runs.
    public var isRunning: Bool { process.isRunning }

    /// Waits until stdout or stderr contains `text`. The default timeout only bounds a failure
    /// (a loaded machine once stalled every process for about 20 s at the start of a run).
    /// - Throws: if the process exits first or `timeout` passes; the message holds its output.
    public func waitForOutput(_ text: String, timeout: Duration = .seconds(60)) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while clock.now < deadline {
            if stdout.contains(text) || stderr.contains(text) { return }
            if !process.isRunning {
                try? await Task.sleep(for: .milliseconds(50))
                if stdout.contains(text) || stderr.contains(text) { return }
                throw ChildProcessError("\(commandLine) exited (status \(process.terminationStatus)) before printing \"\(text)\"\nstdout:\n\(stdout)\nstderr:\n\(stderr)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw ChildProcessError("\(commandLine) did not print \"\(text)\" within \(timeout)\nstdout:\n\(stdout)\nstderr:\n\(stderr)")
    }

    /// Waits for the process to exit and returns its status.
    /// - Throws: if it runs longer than `timeout` (it is then killed).
    @discardableResult
    public func waitForExit(timeout: Duration = .seconds(60)) async throws -> Int32 {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while process.isRunning {
            if clock.now >= deadline {
                terminate()
                throw ChildProcessError("\(commandLine) still running after \(timeout); killed\nstdout:\n\(stdout)\nstderr:\n\(stderr)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        // Read what is left in the pipes, off the cooperative pool: `readToEnd` waits for end of
        // file, which a grandchild still holding the pipe can delay.
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Self.reaper.async {
                self.drain()
                done.resume()
            }
        }
        return process.terminationStatus
    }

    private func drain() {
        outPipe.fileHandleForReading.readabilityHandler = nil
        errPipe.fileHandleForReading.readabilityHandler = nil
        let restOut = (try? outPipe.fileHandleForReading.readToEnd()) ?? nil
        let restErr = (try? errPipe.fileHandleForReading.readToEnd()) ?? nil
        output.state.withLock {
            if let restOut { $0.stdout.append(contentsOf: restOut) }
            if let restErr { $0.stderr.append(contentsOf: restErr) }
        }
    }

    /// Sends SIGTERM now; a reaper off the cooperative pool sends SIGKILL if the process still
    /// runs 2 s later and collects it. Returns at once: tests call this from `defer` and `deinit`
    /// inside async code, where a blocking wait would hold one of the pool's few threads (2 on a
    /// 2-core machine) and stall every other test meanwhile. Use ``waitForExit(timeout:)`` to
    /// know the process has ended.
    public func terminate() {
        guard process.isRunning else { return }
        process.terminate()
        let process = self.process
        Self.reaper.async {
            let deadline = Date().addingTimeInterval(2)
            while process.isRunning && Date() < deadline { usleep(10_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
    }

    /// Where terminated processes are waited for (never the cooperative pool).
    private static let reaper = DispatchQueue(label: "nearby.tests.child-reaper", attributes: .concurrent)

    /// Sends a signal (e.g. SIGINT to let a CLI shut down cleanly).
    public func signal(_ signal: Int32) { kill(process.processIdentifier, signal) }

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
    let state = Mutex<(stdout: [UInt8], stderr: [UInt8])>(([], []))
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
