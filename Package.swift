// swift-tools-version: 6.1
// The nearby package: a UWB nearby-interaction ranging engine for Linux.
// Layout and rules: DEVELOPERS.md.

import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let logging = Target.Dependency.product(name: "Logging", package: "swift-log")

let package = Package(
    name: "nearby",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "nearby", targets: ["nearby"]),
        .library(name: "NearbyBase", targets: ["NearbyBase"]),
        .library(name: "NearbySupport", targets: ["NearbySupport"]),
        .library(name: "Ranging", targets: ["Ranging"]),
        .library(name: "UCI", targets: ["UCI"]),
        .library(name: "NIProtocol", targets: ["NIProtocol"]),
        .library(name: "Positioning", targets: ["Positioning"]),
        .library(name: "UWBDevice", targets: ["UWBDevice"]),
        .library(name: "LowEnergy", targets: ["LowEnergy"]),
        .library(name: "BlueZ", targets: ["BlueZ"]),
        .library(name: "Accessories", targets: ["Accessories"]),
        .library(name: "NearbyInteraction", targets: ["NearbyInteraction"]),
        .library(name: "Simulation", targets: ["Simulation"]),
        .library(name: "Hooks", targets: ["Hooks"]),
        .library(name: "NearbyConfig", targets: ["NearbyConfig"]),
        .library(name: "NearbyRuntime", targets: ["NearbyRuntime"]),
        .library(name: "NearbyWeb", targets: ["NearbyWeb"]),
        .library(name: "MQTT", targets: ["MQTT"]),
        .library(name: "NearbyMQTT", targets: ["NearbyMQTT"]),
        .library(name: "NearbyTerminal", targets: ["NearbyTerminal"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-async-algorithms", from: "1.1.4"),
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/apple/swift-numerics", from: "1.1.1"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // Documentation (issue 29): `make docs` renders each library's DocC catalog with it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // Latency histograms of `make perf` (LatencyProbe, off unless NEARBY_LATENCY_LOG is set).
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
    ],
    targets: [
        // C system libraries: module map + shim.h only.
        .systemLibrary(
            name: "CLibUSB", pkgConfig: "libusb-1.0",
            providers: [.apt(["libusb-1.0-0-dev"])]),
        // Headers only, not linked: the constants and structs of BlueZ's headers (the HCI socket
        // is opened with plain socket(2) and ioctl(2)); no libbluetooth function is called.
        .systemLibrary(
            name: "CBluetooth",
            providers: [.apt(["libbluetooth-dev"])]),
        // Headers only, not linked: MQTT and BlueZ open libmosquitto.so.1 / libsystemd.so.0 with
        // dlopen at first use (MosquittoLibrary.swift, SDBusLibrary.swift; specs/runtime.md §6.1).
        .systemLibrary(
            name: "CMosquitto",
            providers: [.apt(["libmosquitto-dev"])]),
        .systemLibrary(
            name: "CSDBus",
            providers: [.apt(["libsystemd-dev"])]),

        // Pure modules: no I/O, no Foundation, no C modules, no actors (PurityTests).
        .target(name: "NearbyBase", swiftSettings: swiftSettings),
        .target(
            name: "Ranging", dependencies: ["NearbyBase", .product(name: "RealModule", package: "swift-numerics")],
            swiftSettings: swiftSettings),
        .target(name: "UCI", dependencies: ["Ranging", "NearbyBase"], swiftSettings: swiftSettings),
        .target(name: "NIProtocol", dependencies: ["UCI", "NearbyBase"], swiftSettings: swiftSettings),
        // The house: floor plans, multi-host fusion into a position and a room, host survey (specs/house.md).
        .target(
            name: "Positioning", dependencies: ["NearbyBase", .product(name: "RealModule", package: "swift-numerics")],
            swiftSettings: swiftSettings),

        // Shared helpers for the I/O modules (files, locks, broadcasting, timeouts).
        .target(
            name: "NearbySupport", dependencies: ["NearbyBase", .product(name: "Histogram", package: "hdrhistogram-swift")],
            swiftSettings: swiftSettings),

        // I/O modules.
        .target(
            name: "UWBDevice",
            dependencies: ["UCI", "Ranging", "CLibUSB", "NearbyBase", "NearbySupport", logging],
            swiftSettings: swiftSettings),
        .target(
            name: "LowEnergy",
            dependencies: [
                "CBluetooth", "NearbyBase", "NearbySupport", logging,
                // Security Manager: P-256 (Crypto) and the AES-128 block function (_CryptoExtras).
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings),
        // The BlueZ backend: bluetoothd over D-Bus (sd-bus), behind LowEnergy's central and
        // peripheral seams (specs/ble-bluez.md).
        .target(
            name: "BlueZ",
            dependencies: ["CSDBus", "LowEnergy", "NearbyBase", "NearbySupport", logging],
            swiftSettings: swiftSettings),
        .target(
            name: "Accessories",
            dependencies: ["LowEnergy", "NearbyBase", "NearbySupport", logging],
            swiftSettings: swiftSettings),
        .target(
            name: "NearbyInteraction",
            dependencies: [
                "Ranging", "UCI", "NIProtocol", "UWBDevice", "LowEnergy", "NearbyBase", "NearbySupport", logging,
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
            ],
            swiftSettings: swiftSettings),
        .target(
            name: "Simulation",
            dependencies: ["Ranging", "UCI", "NIProtocol", "UWBDevice", "LowEnergy", "NearbyInteraction", "NearbyBase", "NearbySupport", logging],
            swiftSettings: swiftSettings),

        // MQTT client over libmosquitto (3.1.1 and 5, TLS, will, reconnect, offline queue).
        .target(
            name: "MQTT",
            dependencies: ["CMosquitto", "NearbySupport", logging],
            swiftSettings: swiftSettings),

        // Zone-trigger hooks: run commands on ranging events (argv only, data in the environment).
        .target(
            name: "Hooks",
            dependencies: [
                "Ranging", "NearbyBase", "NearbySupport", logging,
                .product(name: "Subprocess", package: "swift-subprocess"),
            ],
            swiftSettings: swiftSettings),
        // The configuration file (TOML): zones, filter, hooks, transports, retry policy, output.
        .target(
            name: "NearbyConfig",
            dependencies: [
                "Ranging", "Hooks", "NearbySupport", "MQTT", "Positioning",
                .product(name: "TOMLKit", package: "TOMLKit"),
            ],
            swiftSettings: swiftSettings),

        // Runs ranging for the commands and library users: sessions, hooks, outputs, summary.
        .target(
            name: "NearbyRuntime",
            dependencies: [
                "Ranging", "UCI", "NIProtocol", "UWBDevice", "LowEnergy", "BlueZ", "Accessories", "NearbyInteraction",
                "Simulation", "Hooks", "NearbyConfig", "NearbyBase", "NearbySupport", "Positioning", logging,
            ],
            swiftSettings: swiftSettings),

        // The live web view (--web): a read-only HTTP server (SwiftNIO) serving the embedded page,
        // the run's state as JSON and its events as server-sent events (specs/web.md).
        .target(
            name: "NearbyWeb",
            dependencies: [
                "NearbyRuntime", "NearbyInteraction", "NIProtocol", "Hooks", "Ranging", "NearbyBase", logging,
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            resources: [.embedInCode("Assets/index.html"), .embedInCode("Assets/app.js"), .embedInCode("Assets/app.css")],
            swiftSettings: swiftSettings),

        // Ranging on an MQTT broker: the publisher (a RunOutput), Home Assistant discovery, the house view.
        .target(
            name: "NearbyMQTT",
            dependencies: ["MQTT", "NearbyRuntime", "NearbyConfig", "NearbyInteraction", "NIProtocol", "Ranging", "Positioning", "NearbyBase", "NearbySupport", logging],
            swiftSettings: swiftSettings),

        // Terminal front-ends for the commands and programs: the live range screen, the replay's
        // text, the accessory picker, pairing prompts, the log handler, signals.
        .target(
            name: "NearbyTerminal",
            dependencies: [
                "NearbyRuntime", "NearbyInteraction", "NIProtocol", "Hooks", "Ranging", "UCI", "UWBDevice", "Accessories", "LowEnergy", "NearbyConfig", "NearbySupport",
                "Simulation",
                logging,
            ],
            swiftSettings: swiftSettings),

        // The CLI: parses flags, prints.
        .executableTarget(
            name: "nearby",
            dependencies: [
                "Ranging", "UCI", "NIProtocol", "UWBDevice", "LowEnergy", "BlueZ", "Accessories", "NearbyInteraction",
                "Simulation", "Hooks", "NearbyConfig", "NearbyRuntime", "NearbyWeb", "NearbyBase", "NearbySupport", "MQTT", "NearbyMQTT", "NearbyTerminal", "Positioning", logging,
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
            ],
            swiftSettings: swiftSettings,
            plugins: ["BuildInfoPlugin"]),
        // `nearby --version`: the version (the file VERSION) and the commit, generated by
        // packaging/build-info.sh when VERSION or git's HEAD changed (git, a `git archive` tarball,
        // or "unknown").
        .plugin(name: "BuildInfoPlugin", capability: .buildTool()),

        // Helpers for tests: package paths, child processes (peers), free ports.
        .target(name: "NearbyTestSupport", dependencies: ["MQTT", "Positioning"], path: "Tests/TestSupport", swiftSettings: swiftSettings),

        // Tests (Swift Testing).
        .testTarget(name: "NearbyBaseTests", dependencies: ["NearbyTestSupport", "NearbyBase"], swiftSettings: swiftSettings),
        .testTarget(name: "RangingTests", dependencies: ["NearbyTestSupport", "Ranging"], swiftSettings: swiftSettings),
        .testTarget(
            name: "PositioningTests", dependencies: ["NearbyTestSupport", "Positioning", "Simulation", "Ranging"], swiftSettings: swiftSettings),
        .testTarget(name: "UCITests", dependencies: ["NearbyTestSupport", "UCI", "Ranging"], swiftSettings: swiftSettings),
        .testTarget(name: "NIProtocolTests", dependencies: ["NearbyTestSupport", "NIProtocol", "UCI"], swiftSettings: swiftSettings),
        .testTarget(name: "NearbySupportTests", dependencies: ["NearbySupport"], swiftSettings: swiftSettings),
        .testTarget(
            name: "UWBDeviceTests", dependencies: ["NearbyTestSupport", "UWBDevice", "UCI", "Ranging", "Simulation", "NearbySupport", logging],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "LowEnergyTests", dependencies: ["NearbyTestSupport", "LowEnergy", "NearbySupport", logging], swiftSettings: swiftSettings),
        .testTarget(
            name: "BlueZTests", dependencies: ["NearbyTestSupport", "BlueZ", "LowEnergy", "NearbySupport", logging],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "AccessoriesTests", dependencies: ["NearbyTestSupport", "Accessories", "LowEnergy", "NearbySupport"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "NearbyInteractionTests",
            dependencies: [
                "NearbyTestSupport", "NearbyInteraction", "NIProtocol", "Simulation", "UWBDevice", "UCI", "Ranging", "LowEnergy",
                "BlueZ", "Accessories", "NearbySupport", logging,
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "SimulationTests",
            dependencies: ["NearbyTestSupport", "Simulation", "UCI", "NIProtocol", "UWBDevice", "Ranging", "LowEnergy", logging],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "HooksTests", dependencies: ["NearbyTestSupport", "Hooks", "Ranging", "NearbySupport", logging],
            swiftSettings: swiftSettings),
        .testTarget(name: "MQTTTests", dependencies: ["NearbyTestSupport", "MQTT", "NearbySupport"], swiftSettings: swiftSettings),
        .testTarget(
            name: "NearbyMQTTTests",
            dependencies: [
                "NearbyTestSupport", "NearbyMQTT", "MQTT", "NearbyRuntime", "NearbyConfig", "NIProtocol", "Ranging", "NearbyBase", "Positioning",
                "Simulation",
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "NearbyConfigTests", dependencies: ["NearbyTestSupport", "NearbyConfig", "Hooks", "Ranging", "Positioning"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "NearbyRuntimeTests",
            dependencies: [
                "NearbyTestSupport", "NearbyRuntime", "NearbyInteraction", "NIProtocol", "NearbyConfig", "Hooks", "Ranging", "Simulation", "NearbyBase",
                "UCI", "UWBDevice", "BlueZ", "LowEnergy",
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "NearbyWebTests",
            dependencies: [
                "NearbyTestSupport", "NearbyWeb", "NearbyRuntime", "NearbyConfig", "NIProtocol", "Ranging", "NearbyBase",
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "NearbyTerminalTests",
            dependencies: [
                "NearbyTestSupport", "NearbyTerminal", "NearbyRuntime", "NearbyInteraction", "NIProtocol", "NearbyConfig", "Ranging", "UCI",
                "UWBDevice", "Accessories", "LowEnergy", "Hooks", "NearbySupport",
            ],
            swiftSettings: swiftSettings),
        // Runs the built `nearby` executable end to end (bench, uci decode, uwb through umockdev, ...).
        .testTarget(
            name: "NearbyCLITests", dependencies: ["NearbyTestSupport", "nearby", "NearbySupport", "MQTT", "Positioning"], swiftSettings: swiftSettings),
    ],
    swiftLanguageModes: [.v6]
)
