import Foundation
import NearbySupport
import Testing

@Suite struct LineReaderTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nearby-lines-\(UUID().uuidString)")

    func file(_ bytes: [UInt8]) throws -> String {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("f.txt")
        try Data(bytes).write(to: url)
        return url.path
    }

    func lines(_ path: String, bufferSize: Int = 65536) throws -> [LineReader.Line] {
        var reader = try LineReader(path: path, bufferSize: bufferSize)
        var result: [LineReader.Line] = []
        while let line = try reader.next() { result.append(line) }
        // At the end it keeps answering nil.
        #expect(try reader.next() == nil)
        return result
    }

    @Test func splitsLFAndCRLFAndKeepsALastLineWithoutTerminator() throws {
        let path = try file(Array("a,b\r\n\nthird line\nlast".utf8))
        let result = try lines(path)
        #expect(result.map(\.text) == ["a,b", "", "third line", "last"])
        #expect(result.map(\.number) == [1, 2, 3, 4])
        try? FileManager.default.removeItem(at: directory)
    }

    @Test func linesAcrossBufferBoundariesAndMultibyteCharacters() throws {
        // A 16-byte buffer splits lines and the UTF-8 of "µ" and "→" across reads.
        var text = ""
        for i in 0..<200 { text += "line \(i) µ→ \(String(repeating: "x", count: i % 37))\n" }
        let path = try file(Array(text.utf8))
        let result = try lines(path, bufferSize: 16)
        #expect(result.count == 200)
        #expect(result.map(\.text) == text.split(separator: "\n").map(String.init))
        #expect(result.last?.number == 200)
        try? FileManager.default.removeItem(at: directory)
    }

    @Test func emptyFileHasNoLines() throws {
        #expect(try lines(try file([])).isEmpty)
        #expect(try lines(try file([0x0A])).map(\.text) == [""])
        try? FileManager.default.removeItem(at: directory)
    }

    @Test func invalidUTF8BecomesReplacementCharacters() throws {
        let result = try lines(try file([0x61, 0xFF, 0x62, 0x0A]))
        #expect(result.map(\.text) == ["a\u{FFFD}b"])
        try? FileManager.default.removeItem(at: directory)
    }

    @Test func missingFileAndDirectoryNameThePath() throws {
        let missing = directory.appendingPathComponent("nope.csv").path
        do {
            _ = try LineReader(path: missing)
            Issue.record("expected an error")
        } catch {
            #expect(error.path == missing)
            #expect(error.errno == ENOENT)
            #expect(error.description == "cannot open \(missing): No such file or directory")
        }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        #expect(throws: FileSystemError.self) { _ = try LineReader(path: directory.path) }
        try? FileManager.default.removeItem(at: directory)
    }

    @Test func overlongLinesAreAnErrorNotUnboundedMemory() throws {
        let path = try file(Array(repeating: 0x41, count: 5000) + [0x0A])
        var reader = try LineReader(path: path, bufferSize: 512, maximumLineLength: 1000)
        do {
            _ = try reader.next()
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("line 1"))
            #expect(error.description.contains("longer than 1000 bytes"))
        }
        try? FileManager.default.removeItem(at: directory)
    }

    @Test func forEachLineVisitsEveryLine() throws {
        let path = try file(Array("x\ny\n".utf8))
        var seen: [String] = []
        try LineReader.forEachLine(in: path) { seen.append("\($0.number):\($0.text)") }
        #expect(seen == ["1:x", "2:y"])
        try? FileManager.default.removeItem(at: directory)
    }
}
