public import Foundation

/// Where things are when tests run: the package root, built products, the test venv.
public enum PackagePaths {
    /// The package's root directory (the one holding Package.swift).
    public static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
                return url
            }
        }
        fatalError("Package.swift not found above \(#filePath)")
    }()

    /// The directory holding the built products of this test run (the `nearby` executable).
    public static let products: URL = {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        var url = URL(fileURLWithPath: exe)
        // .../debug/nearbyPackageTests.xctest (a file on Linux) -> .../debug
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.isExecutableFile(atPath: url.appendingPathComponent("nearby").path) {
                return url
            }
        }
        return root.appendingPathComponent(".build/debug")
    }()

    /// The built `nearby` executable.
    public static var nearby: URL { products.appendingPathComponent("nearby") }

    /// A file under the package root, e.g. `file("data/hanyang/static/los_h100_2m.csv")`.
    public static func file(_ relative: String) -> URL { root.appendingPathComponent(relative) }

    /// The Python interpreter of the test venv (`make test` creates `.build/venv` with the pinned
    /// packages of `Tests/Peers/requirements.txt`, Bumble among them). `NEARBY_TEST_PYTHON`
    /// overrides it.
    public static func venvPython() throws -> URL {
        if let override = ProcessInfo.processInfo.environment["NEARBY_TEST_PYTHON"] {
            return URL(fileURLWithPath: override)
        }
        let python = root.appendingPathComponent(".build/venv/bin/python")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw MissingTool(
                "the test venv with Bumble is missing (\(python.path)); run `make test`, which creates it")
        }
        return python
    }

    /// Debian's Python, which sees `python3-gi` (the umockdev emulator runs under it).
    public static func systemPython() throws -> URL {
        let python = URL(fileURLWithPath: "/usr/bin/python3")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw MissingTool("/usr/bin/python3 is missing; run `make test`, which installs it")
        }
        return python
    }
}

/// A tool a test needs is not installed. Tests fail with this (never skip): `make test` installs it.
public struct MissingTool: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
