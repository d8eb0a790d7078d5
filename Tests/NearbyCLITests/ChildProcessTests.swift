import Foundation
import NearbyTestSupport
import Testing

/// The test harness's child process: a line the child printed before an event the test saw
/// through another channel is already in `stdout` (CI once failed when a Bumble peer's
/// `RECEIVED` line, printed before its echo, was not yet read when the echo arrived).
@Suite("ChildProcess: output and events")
struct ChildProcessTests {
    @Test("a line printed before a file appears is in stdout as soon as the file is seen, every time")
    func printedBeforeAnEventIsVisibleAfterIt() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nearby-child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let rounds = 40
        // Each round: print line i, then create file i (the "event"), then wait for ack i.
        let script = """
            i=1
            while [ $i -le \(rounds) ]; do
              echo "line $i"
              echo "err $i" >&2
              : > "$0/$i"
              while [ ! -e "$0/ack$i" ]; do sleep 0.005; done
              i=$((i + 1))
            done
            """
        let child = try ChildProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", script, directory.path])
        defer { child.terminate() }
        for round in 1...rounds {
            let event = directory.appendingPathComponent("\(round)").path
            let deadline = ContinuousClock.now.advanced(by: .seconds(30))
            while !FileManager.default.fileExists(atPath: event), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(1))
            }
            #expect(FileManager.default.fileExists(atPath: event))
            let (stdout, stderr) = (child.stdout, child.stderr)
            #expect(stdout.hasSuffix("line \(round)\n"), "round \(round): \(stdout.suffix(40))")
            #expect(stderr.hasSuffix("err \(round)\n"), "round \(round): \(stderr.suffix(40))")
            FileManager.default.createFile(atPath: directory.appendingPathComponent("ack\(round)").path, contents: nil)
        }
        #expect(try await child.waitForExit() == 0)
        #expect(child.stdout.split(separator: "\n").count == rounds, "nothing read twice or lost")
        #expect(child.stdout.hasPrefix("line 1\nline 2\n"))
    }

    @Test("output after the child exits: everything up to the end of file, and waitForExit returns at once")
    func endOfFile() async throws {
        let child = try ChildProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", "head -c 200000 /dev/zero | tr '\\0' x; echo; echo done >&2"])
        #expect(try await child.waitForExit() == 0)
        #expect(child.stdout.count == 200_001 && child.stdout.hasPrefix("xxx"))
        #expect(child.stderr == "done\n")
    }
}
