@testable import NearbyConfig
import Testing

/// Inputs the fuzzer (Fuzz/, FuzzConfig) found; each file is also in Fuzz/Regressions/FuzzConfig.
@Suite struct ConfigFuzzRegressionTests {
    /// `[[` then U+0002, and `[[[lo`: toml++ asserted (`parse_key`: is_bare_key_character) and
    /// aborted nearby (debug builds; undefined behaviour where the assertion is an assumption).
    /// Table headers without a key start and control characters are now syntax errors reported
    /// before TOML parsing, with the line, the column and the fix.
    @Test func aBadTableHeaderOrAControlCharacterIsASyntaxErrorNotACrash() {
        let headers: [([UInt8], Int)] = [
            ([0x5B, 0x5B, 0x02] + Array("tcp-client:se".utf8), 3), (Array("[[[lo# nearby\n".utf8), 3), (Array("[ {".utf8), 3),
            ([0xEF, 0xBB, 0xBF] + Array("[ ,n7\"]\n".utf8), 3),  // after a byte-order mark
        ]
        for (bytes, column) in headers {
            #expect {
                _ = try ConfigurationFile.parse(bytes: bytes, source: "fuzz.toml")
            } throws: { error in
                guard let error = error as? ConfigError, let issue = error.issues.first else { return false }
                return issue.line == 1 && issue.column == column && issue.message.contains("a table header needs a name")
            }
        }
        #expect {
            _ = try ConfigurationFile.parse(bytes: Array("a = 1\nb = \"x".utf8) + [0x02] + Array("\"\n".utf8), source: "f")
        } throws: { error in
            guard let error = error as? ConfigError, let issue = error.issues.first else { return false }
            return issue.line == 2 && issue.column == 7 && issue.message.contains("control character U+0002")
        }
        for scalar: UInt8 in [0x00, 0x01, 0x1F, 0x7F] {
            #expect(throws: ConfigError.self) { _ = try ConfigurationFile.parse(bytes: Array("a = \"x".utf8) + [scalar] + Array("\"\n".utf8), source: "f") }
        }
    }

    /// Tabs, both line ends, and brackets in strings, comments and multi-line arrays are left to
    /// the TOML parser.
    @Test func validTextPassesThePrecheck() {
        let valid = #"""
            a = [
              [ {x = 1} ],
              [1, 2],
            ]
            b = """
            [[[x
            """
            c = '''
            [ {
            '''
            # [[[ in a comment
            [ "quoted" ]
            [[ 'literal' ]]
            [ _bare-key ]
            d = "\"["
            	e = 1
            """#
        #expect(TOMLPrecheck.firstProblem(in: valid) == nil)
        #expect(TOMLPrecheck.firstProblem(in: "\t\r\n[zones]\r\n") == nil)
    }
}
