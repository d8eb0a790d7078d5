// swift-tools-version: 6.1
// Benchmarks for nearby's hot paths (package-benchmark): throughput and mallocs per sample /
// per notification. Run: `make benchmarks` (or `cd Benchmarks && swift package benchmark`).

import PackageDescription

let package = Package(
    name: "nearby-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "nearby", path: "../"),
        .package(url: "https://github.com/ordo-one/benchmark.git", exact: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .executableTarget(
            name: "RangingBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Ranging", package: "nearby"),
            ],
            path: "Benchmarks/RangingBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "UCIBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "UCI", package: "nearby"),
                .product(name: "Ranging", package: "nearby"),
            ],
            path: "Benchmarks/UCIBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "LowEnergyBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "LowEnergy", package: "nearby"),
            ],
            path: "Benchmarks/LowEnergyBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "SecurityBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "LowEnergy", package: "nearby"),
            ],
            path: "Benchmarks/SecurityBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "UWBClientBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "UWBDevice", package: "nearby"),
                .product(name: "UCI", package: "nearby"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/UWBClientBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "SimulationBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Simulation", package: "nearby"),
                .product(name: "UCI", package: "nearby"),
            ],
            path: "Benchmarks/SimulationBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "RuntimeBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "NearbyRuntime", package: "nearby"),
                .product(name: "NearbyInteraction", package: "nearby"),
                .product(name: "NearbySupport", package: "nearby"),
                .product(name: "NearbyTerminal", package: "nearby"),
                .product(name: "NIProtocol", package: "nearby"),
                .product(name: "Ranging", package: "nearby"),
                .product(name: "UCI", package: "nearby"),
            ],
            path: "Benchmarks/RuntimeBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "SessionBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "NIProtocol", package: "nearby"),
                .product(name: "UCI", package: "nearby"),
            ],
            path: "Benchmarks/SessionBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
