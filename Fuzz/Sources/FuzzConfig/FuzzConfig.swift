import FuzzSupport
import NearbyConfig

/// The TOML configuration file (`~/.config/nearby/config.toml`): `ConfigurationFile.parse`
/// (TOMLKit's toml++ underneath, then our schema: zones, filter, hooks, transports, retry,
/// output, with every issue's line and key).
///
/// Input: the file's bytes.
/// Invariant: a rejected file says why, with at least one issue that has a message.
@main enum FuzzConfig: FuzzTarget {
    static var seeds: [[UInt8]] {
        [
            Array(ConfigurationFile.example.utf8),
            Array("[zones]\nboundaries = [1.0, 2.5]\nnames = [\"a\", \"b\", \"c\"]\n".utf8),
            Array("[[hook]]\non = \"enter\"\nzone = \"near\"\nrun = [\"/bin/true\"]\n".utf8),
            Array("[transports]\nuwb = \"tcp:127.0.0.1:7000\"\nble = \"tcp-client:127.0.0.1:5000\"\n".utf8),
            // Deliberately invalid: the IMM keys removed in issue 27 (a rejection naming what replaced them).
            Array("[filter.imm]\ngate = 4.0\nrelock_count = 4\noutlier_time = 60.0\n".utf8),
        ]
    }

    static func fuzz(_ input: [UInt8]) {
        do {
            _ = try ConfigurationFile.parse(bytes: input, source: "fuzz.toml")
        } catch {
            FuzzCheck.require(!error.issues.isEmpty && error.issues.allSatisfy { !$0.message.isEmpty }, "a rejection without a reason")
            _ = error.description
        }
    }
}
