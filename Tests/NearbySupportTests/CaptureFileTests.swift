import Foundation
import NearbySupport
import Synchronization
import Testing

/// The capture file behind `--uci-log`, `--hci-log` and `--record`: mode 0600, a header in every
/// file, rotation at the size cap, failures counted and reported once, never thrown or trapped.
@Suite struct CaptureFileTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nearby-capture-\(UUID().uuidString)")

    init() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    func mode(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o777 : 0
    }

    @Test("a new file and an existing world-readable one both end up 0600, header first, records after")
    func modeAndContent() throws {
        let existing = path("old.log")
        _ = FileManager.default.createFile(atPath: existing, contents: Data("secret".utf8), attributes: [.posixPermissions: 0o644])
        for file in [path("new.log"), existing] {
            let capture = try CaptureFile(path: file, header: [0xAA, 0xBB])
            capture.write([1, 2, 3])
            capture.write([4])
            capture.close()
            #expect(mode(file) == 0o600)
            #expect(try bytes(file) == [0xAA, 0xBB, 1, 2, 3, 4])
            #expect(capture.statistics.recordsWritten == 2 && capture.statistics.bytesWritten == 6 && capture.statistics.recordsLost == 0)
        }
    }

    @Test("rotation: FILE -> FILE.1 -> FILE.2, the oldest dropped; every file starts with the header and stays under the cap")
    func rotation() throws {
        let file = path("rot.log")
        let header: [UInt8] = Array("HEAD".utf8)
        let capture = try CaptureFile(path: file, header: header, limits: CaptureLimits(maximumBytes: 100, keptFiles: 2))
        for index in 0..<40 { capture.write([UInt8](repeating: UInt8(index), count: 10)) }
        capture.close()
        let files = [file, file + ".1", file + ".2"]
        for name in files {
            let content = try bytes(name)
            #expect(Array(content.prefix(4)) == header, "\(name) starts with the header")
            #expect(content.count <= 100)
            #expect(mode(name) == 0o600)
        }
        #expect(!FileManager.default.fileExists(atPath: file + ".3"))
        // The newest file ends with the last record; the files hold the last records in order.
        let newest = try bytes(file)
        #expect(newest.suffix(10) == ArraySlice(repeating: 39, count: 10))
        let statistics = capture.statistics
        #expect(statistics.recordsWritten == 40 && statistics.recordsLost == 0)
        #expect(statistics.rotations == 4, "9 records of 10 bytes fit after a 4-byte header: 40 records make 5 files")
    }

    @Test("a full disk: the header and every record fail, the failure is reported once, nothing traps")
    func fullDisk() throws {
        let reported = Mutex<[FileSystemError]>([])
        let capture = try CaptureFile(path: "/dev/full", header: [1, 2, 3], onFailure: { error in reported.withLock { $0.append(error) } })
        for _ in 0..<5 { capture.write([9, 9]) }
        let statistics = capture.statistics
        #expect(statistics.recordsWritten == 0 && statistics.recordsLost == 5)
        #expect(statistics.failure?.errno == ENOSPC)
        let errors = reported.withLock { $0 }
        #expect(errors.count == 1, "reported once, not once per record")
        #expect(errors.first?.description.contains("the disk is full") == true)
        capture.close()
        capture.write([1])
        #expect(capture.statistics.recordsLost == 6, "a record after close() is counted as lost")
    }

    @Test("a file that cannot be created is an error naming the path")
    func cannotCreate() {
        #expect {
            _ = try CaptureFile(path: path("missing/dir/x.log"), header: [])
        } throws: { error in
            "\(error)".contains("missing/dir/x.log") && "\(error)".contains("cannot create")
        }
    }
}
