public import Foundation

/// A real MQTT broker for tests: Debian's `mosquitto` (/usr/sbin/mosquitto, installed by
/// `make test`) on a free loopback port, with its own configuration in a temporary directory.
/// Optional: a password file, a TLS listener (``TestCertificates``), persistence (so a restart
/// keeps retained messages and persistent sessions). Can be stopped, killed and restarted on
/// the same port.
public final class MosquittoBroker: @unchecked Sendable {
    /// The broker executable.
    public static let executable = URL(fileURLWithPath: "/usr/sbin/mosquitto")

    /// TLS settings of the listener.
    public struct TLS: Sendable {
        /// The PEM files.
        public var certificates: TestCertificates
        /// Ask clients for a certificate signed by the CA.
        public var requireClientCertificate: Bool

        /// Creates the settings.
        public init(certificates: TestCertificates, requireClientCertificate: Bool = false) {
            self.certificates = certificates
            self.requireClientCertificate = requireClientCertificate
        }
    }

    /// The port it listens on (127.0.0.1).
    public let port: Int
    /// Its directory (configuration, password file, persistence, log).
    public let directory: URL
    private var process: ChildProcess?
    private let configFile: URL

    /// Writes the configuration and starts the broker.
    /// - Parameters:
    ///   - users: user name → password; when given, anonymous clients are refused.
    ///   - tls: a TLS listener instead of plain TCP.
    ///   - persistence: keep retained messages and sessions across restarts.
    /// - Throws: ``MissingTool`` when mosquitto is not installed, or if it does not start.
    public init(users: [String: String] = [:], tls: TLS? = nil, persistence: Bool = false) async throws {
        guard FileManager.default.isExecutableFile(atPath: Self.executable.path) else {
            throw MissingTool("\(Self.executable.path) is missing; run `make test`, which installs Debian's mosquitto")
        }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("nearby-mosquitto-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        configFile = directory.appendingPathComponent("mosquitto.conf")
        var lines = ["log_dest stderr", "log_type error", "log_type warning", "log_type notice",
                     "log_type information", "connection_messages true"]
        if let user = String(validatingCString: getpwuid(getuid()).pointee.pw_name) { lines.append("user \(user)") }
        if users.isEmpty {
            lines.append("allow_anonymous true")
        } else {
            let passwords = directory.appendingPathComponent("passwords")
            _ = FileManager.default.createFile(atPath: passwords.path, contents: nil, attributes: [.posixPermissions: 0o600])
            for (user, password) in users {
                let run = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/mosquitto_passwd"), ["-b", passwords.path, user, password])
                guard run.status == 0 else { throw ChildProcessError("mosquitto_passwd failed: \(run.stderr)") }
            }
            lines += ["allow_anonymous false", "password_file \(passwords.path)"]
        }
        if let tls {
            lines += ["cafile \(tls.certificates.caFile)", "certfile \(tls.certificates.serverCertificate)", "keyfile \(tls.certificates.serverKey)"]
            if tls.requireClientCertificate { lines.append("require_certificate true") }
        }
        if persistence {
            lines += ["persistence true", "persistence_location \(directory.path)/", "autosave_interval 1"]
        }
        // A port free when chosen can be taken before mosquitto binds it (a parallel test's
        // outgoing connection or listener; CI once lost this race): choose another and retry.
        var attempt = 0
        while true {
            attempt += 1
            let candidate = try freeTCPPort()
            try ((["listener \(candidate) 127.0.0.1"] + lines).joined(separator: "\n") + "\n").write(to: configFile, atomically: true, encoding: .utf8)
            do {
                process = try await Self.launch(configFile)
                port = candidate
                break
            } catch let error as ChildProcessError where Self.addressInUse(error) && attempt < 10 {
                continue
            }
        }
    }

    deinit {
        process?.signal(SIGKILL)
        process?.terminate()
        try? FileManager.default.removeItem(at: directory)
    }

    /// `mqtt://127.0.0.1:PORT` (or `mqtts://` with `user@` when given).
    public func url(tls: Bool = false, user: String? = nil, host: String = "127.0.0.1") -> String {
        "\(tls ? "mqtts" : "mqtt")://\(user.map { $0 + "@" } ?? "")\(host):\(port)"
    }

    /// Starts the broker (again) and waits until it accepts connections.
    ///
    /// The broker starts with no signal blocked: the test process blocks SIGTERM and SIGINT in
    /// some threads, a child inherits that mask, and mosquitto would then never see SIGTERM.
    public func start() async throws {
        // On a restart another process may hold the port for a moment: try again a few times.
        for attempt in 1... {
            do {
                process = try await Self.launch(configFile)
                return
            } catch let error as ChildProcessError where Self.addressInUse(error) && attempt < 20 {
                try await Task.sleep(for: .milliseconds(500))
            }
        }
    }

    /// Runs mosquitto with `config` and waits until it says it is running.
    private static func launch(_ config: URL) async throws -> ChildProcess {
        let unblock = "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, set()); os.execv(sys.argv[1], sys.argv[1:])"
        let child = try ChildProcess(try PackagePaths.systemPython(), ["-c", unblock, executable.path, "-c", config.path])
        try await child.waitForOutput("running", timeout: .seconds(60))
        return child
    }

    /// Whether mosquitto failed because its port was taken.
    private static func addressInUse(_ error: ChildProcessError) -> Bool {
        String(describing: error).contains("Address already in use")
    }

    /// Stops it cleanly (SIGTERM: it saves its persistence file) and waits for the exit.
    public func stop() async throws {
        guard let process else { return }
        process.signal(SIGTERM)
        try await process.waitForExit(timeout: .seconds(20))
        self.process = nil
    }

    /// Kills it (SIGKILL, no goodbye) and waits for the exit.
    public func kill() async throws {
        guard let process else { return }
        process.signal(SIGKILL)
        try await process.waitForExit(timeout: .seconds(20))
        self.process = nil
    }

    /// Stops and starts it on the same port.
    public func restart() async throws {
        try await stop()
        try await start()
    }

    /// What the broker logged so far (connections, disconnections, wills).
    public var log: String { process?.stderr ?? "" }
}

/// A CA, a server certificate for 127.0.0.1 / localhost and a client certificate, made with
/// Debian's `openssl` in a temporary directory (EC P-256 keys, valid for 2 days).
public struct TestCertificates: Sendable {
    /// The directory holding the files.
    public var directory: String
    /// The CA certificate (PEM).
    public var caFile: String { directory + "/ca.crt" }
    /// The broker's certificate (names 127.0.0.1 and localhost).
    public var serverCertificate: String { directory + "/server.crt" }
    /// The broker's key.
    public var serverKey: String { directory + "/server.key" }
    /// A client certificate signed by the CA.
    public var clientCertificate: String { directory + "/client.crt" }
    /// The client's key.
    public var clientKey: String { directory + "/client.key" }
    /// Another CA's certificate, which did not sign the broker's (for a failing handshake).
    public var otherCAFile: String { directory + "/other-ca.crt" }

    /// Generates every file.
    /// - Throws: ``MissingTool`` when openssl is missing, or what openssl said.
    public static func make() async throws -> TestCertificates {
        let openssl = URL(fileURLWithPath: "/usr/bin/openssl")
        guard FileManager.default.isExecutableFile(atPath: openssl.path) else {
            throw MissingTool("/usr/bin/openssl is missing; install Debian's openssl")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nearby-certs-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        func run(_ arguments: [String]) async throws {
            let result = try await ChildProcess.run(openssl, arguments)
            guard result.status == 0 else { throw ChildProcessError("openssl \(arguments.joined(separator: " ")) failed: \(result.stderr)") }
        }
        let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        for ca in ["ca", "other-ca"] {
            try await run(["req", "-x509"] + key + ["-keyout", "\(directory)/\(ca).key", "-out", "\(directory)/\(ca).crt", "-days", "2", "-subj", "/CN=nearby test \(ca)"])
        }
        try "subjectAltName=IP:127.0.0.1,DNS:localhost\n".write(toFile: "\(directory)/server.ext", atomically: true, encoding: .utf8)
        try "extendedKeyUsage=clientAuth\n".write(toFile: "\(directory)/client.ext", atomically: true, encoding: .utf8)
        for (name, subject) in [("server", "/CN=localhost"), ("client", "/CN=nearby-test-client")] {
            try await run(["req"] + key + ["-keyout", "\(directory)/\(name).key", "-out", "\(directory)/\(name).csr", "-subj", subject])
            try await run([
                "x509", "-req", "-in", "\(directory)/\(name).csr", "-CA", "\(directory)/ca.crt", "-CAkey", "\(directory)/ca.key",
                "-CAcreateserial", "-out", "\(directory)/\(name).crt", "-days", "2", "-extfile", "\(directory)/\(name).ext",
            ])
        }
        return TestCertificates(directory: directory)
    }
}
