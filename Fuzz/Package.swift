// swift-tools-version: 6.1
// libFuzzer targets for every parser that reads bytes or text from outside (specs/fuzzing.md).
// Built with the fuzzer and AddressSanitizer, in a build tree of their own:
//   swift build --package-path Fuzz --scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer,address
// `make fuzz` runs each target long, `make fuzz-smoke` (part of `make test`) briefly.
// A target is an executable whose `@main` type conforms to FuzzTarget (FuzzSupport).

import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

func nearby(_ name: String) -> Target.Dependency { .product(name: name, package: "nearby") }

/// A fuzz target: `Sources/<name>/<name>.swift`.
func fuzzTarget(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .executableTarget(name: name, dependencies: ["FuzzSupport"] + dependencies, swiftSettings: swiftSettings)
}

let package = Package(
    name: "nearby-fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "nearby", path: "../"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // libFuzzer's driver entry point (declared only; compiler-rt provides it).
        .target(name: "CLibFuzzer"),
        .target(name: "FuzzSupport", dependencies: ["CLibFuzzer"], swiftSettings: swiftSettings),
        .target(name: "FuzzUCICommon", dependencies: ["FuzzSupport", nearby("UCI"), nearby("NearbyBase")], swiftSettings: swiftSettings),
        .target(
            name: "FuzzLowEnergyCommon",
            dependencies: ["FuzzSupport", nearby("LowEnergy"), .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings),

        // UWB: the UWBS -> host stream, single packets, SESSION_INFO_NTF.
        fuzzTarget("FuzzUCIStream", ["FuzzUCICommon", nearby("UCI"), nearby("UWBDevice")]),
        fuzzTarget("FuzzUCIMessage", ["FuzzUCICommon", nearby("UCI")]),
        fuzzTarget("FuzzUCISessionInfo", ["FuzzUCICommon", nearby("UCI")]),
        // BLE: the H4 stream (events, ACL, L2CAP), ATT, LE signaling, advertising, SMP.
        fuzzTarget("FuzzHCI", ["FuzzLowEnergyCommon", nearby("LowEnergy")]),
        fuzzTarget("FuzzATT", ["FuzzLowEnergyCommon", nearby("LowEnergy")]),
        fuzzTarget("FuzzL2CAPSignaling", ["FuzzLowEnergyCommon", nearby("LowEnergy")]),
        fuzzTarget("FuzzAdvertising", ["FuzzLowEnergyCommon", nearby("LowEnergy"), nearby("Accessories")]),
        fuzzTarget("FuzzSMP", ["FuzzLowEnergyCommon", nearby("LowEnergy")]),
        // The NI accessory protocol.
        fuzzTarget("FuzzNIMessage", [nearby("NIProtocol"), nearby("UCI"), nearby("NearbyBase")]),
        // Files: traces, the configuration, the accessory store.
        fuzzTarget("FuzzTraceCSV", [nearby("Ranging")]),
        fuzzTarget("FuzzConfig", [nearby("NearbyConfig")]),
        fuzzTarget("FuzzAccessoryStore", [nearby("Accessories"), nearby("LowEnergy")]),
        fuzzTarget("FuzzCaptureFiles", [nearby("UWBDevice"), nearby("LowEnergy")]),
    ],
    swiftLanguageModes: [.v6]
)
