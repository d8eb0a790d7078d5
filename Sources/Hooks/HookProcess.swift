#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Subprocess
#if canImport(System)
import System
#else
import SystemPackage
#endif
import NearbyBase

/// Runs one hook command to completion: argv through swift-subprocess (no shell), the event in
/// the environment, stdin from /dev/null, stdout and stderr captured (tails kept), in its own
/// session so that a timeout ends the whole process group (SIGTERM, then SIGKILL after `grace`).
enum HookProcess {
    struct Result: Sendable {
        var status: HookOutcome.Status
        var timedOut: Bool
        var duration: Double
        var standardOutput: String
        var standardError: String
    }

    private struct Supervision: Sendable {
        var standardOutput: OutputTail
        var standardError: OutputTail
        var timedOut = false
    }

    private enum Piece: Sendable {
        case standardOutput(OutputTail)
        case standardError(OutputTail)
        case deadline
        case exited
        case cancelled
    }

    static func run(
        _ argv: [String], environment: [(name: String, value: String)], timeout: Duration, grace: Duration, tailLimit: Int,
        started: (@Sendable () -> Void)? = nil
    ) async -> Result {
        let clock = ContinuousClock()
        let start = clock.now
        let executable: Executable = argv[0].contains("/") ? .path(FilePath(argv[0])) : .name(argv[0])
        var overrides: [Environment.Key: String?] = [:]
        for (name, value) in environment {
            if let key = Environment.Key(rawValue: name) { overrides[key] = value }
        }
        var options = PlatformOptions()
        options.createSession = true
        let teardown: [TeardownStep] = [.send(signal: .terminate, toProcessGroup: true, allowedDurationToNextStep: grace)]
        options.teardownSequence = teardown
        let deadline = start + timeout
        do {
            let result = try await Subprocess.run(
                executable, arguments: Arguments(Array(argv.dropFirst())), environment: .inherit.updating(overrides),
                platformOptions: options, input: .none, output: .sequence, error: .sequence
            ) { execution in
                // The process runs (swift-subprocess returns once the child has exec'd).
                started?()
                return await supervise(execution, deadline: deadline, teardown: teardown, tailLimit: tailLimit)
            }
            let supervision = result.closureResult
            let status: HookOutcome.Status =
                switch result.terminationStatus {
                case .exited(let code): .exited(code)
                case .signaled(let signal): .signaled(signal)
                }
            return Result(
                status: status, timedOut: supervision.timedOut, duration: (clock.now - start).inSeconds,
                standardOutput: supervision.standardOutput.text, standardError: supervision.standardError.text)
        } catch {
            return Result(
                status: .failedToStart(describe(error, argv: argv)), timedOut: false, duration: 0, standardOutput: "",
                standardError: "")
        }
    }

    private static func supervise(
        _ execution: Execution<NoInput, SequenceOutput, SequenceOutput>, deadline: ContinuousClock.Instant,
        teardown: [TeardownStep], tailLimit: Int
    ) async -> Supervision {
        let pid = execution.processIdentifier.value
        return await withTaskGroup(of: Piece.self) { group in
            group.addTask { .standardOutput(await collect(execution.standardOutput, limit: tailLimit)) }
            group.addTask { .standardError(await collect(execution.standardError, limit: tailLimit)) }
            group.addTask {
                do {
                    try await Task.sleep(until: deadline, clock: .continuous)
                    return .deadline
                } catch {
                    return .cancelled
                }
            }
            var supervision = Supervision(standardOutput: OutputTail(limit: tailLimit), standardError: OutputTail(limit: tailLimit))
            var openStreams = 2
            while let piece = await group.next() {
                switch piece {
                case .standardOutput(let tail):
                    supervision.standardOutput = tail
                    openStreams -= 1
                case .standardError(let tail):
                    supervision.standardError = tail
                    openStreams -= 1
                case .deadline:
                    supervision.timedOut = true
                    // SIGTERM to the process group, SIGKILL after the grace period; returns once it exited.
                    await execution.teardown(using: teardown)
                case .exited:
                    group.cancelAll()
                case .cancelled:
                    break
                }
                if case .standardOutput = piece, openStreams == 0 { group.addTask { await waitForExit(pid) } }
                if case .standardError = piece, openStreams == 0 { group.addTask { await waitForExit(pid) } }
            }
            return supervision
        }
    }

    /// Reads a stream to its end, keeping the tail.
    private static func collect(_ stream: SubprocessOutputSequence, limit: Int) async -> OutputTail {
        var tail = OutputTail(limit: limit)
        do {
            for try await buffer in stream {
                buffer.withUnsafeBytes { tail.append($0) }
            }
        } catch {
            // The stream ends with an error when the process is gone; keep what was read.
        }
        return tail
    }

    /// Waits until `pid` has exited (without reaping it: swift-subprocess reaps it) or the task is
    /// cancelled. Both output streams are closed when this is called, so normally the process has
    /// just exited; the polling only matters for a command that closed them and kept running.
    private static func waitForExit(_ pid: pid_t) async -> Piece {
        var pause = 1
        while !Task.isCancelled {
            var info = siginfo_t()
            let rc = waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT)
            if rc != 0 || info.si_signo == SIGCHLD { return .exited }
            try? await Task.sleep(for: .milliseconds(pause))
            pause = min(pause * 2, 50)
        }
        return .cancelled
    }

    private static func describe(_ error: any Error, argv: [String]) -> String {
        if let error = error as? SubprocessError {
            if error.code == .executableNotFound {
                return argv[0].contains("/")
                    ? "\(argv[0]) does not exist or is not executable; check the path and its x permission"
                    : "'\(argv[0])' was not found in PATH; write its absolute path (e.g. /usr/bin/\(argv[0]))"
            }
            return "cannot run \(argv[0]): \(error)"
        }
        return "cannot run \(argv[0]): \(error)"
    }
}
