import CLibFuzzer

#if canImport(Glibc)
    import Glibc
#endif

/// A libFuzzer target: one parser (or one path of parsers) fed with arbitrary bytes.
///
/// A target is an `@main` type; its `main()` (from this extension) hands control to libFuzzer's
/// driver, so every libFuzzer flag works (`-runs=`, `-max_total_time=`, `-timeout=`, corpus
/// directories, a crash file to replay):
///
/// ```swift
/// @main enum FuzzTraceCSV: FuzzTarget {
///     static let seeds: [[UInt8]] = [Array("t_s,distance_m\n0,1.5\n".utf8)]
///     static func fuzz(_ input: [UInt8]) { ... }
/// }
/// ```
///
/// `fuzz` must not trap on any input: a parser answers bad bytes with a typed error. It checks
/// the target's invariants (a decoded value re-encodes to what decodes to it again, a view and
/// the full decoder agree, ...) with ``FuzzCheck/require(_:_:file:line:)``, which traps so that
/// libFuzzer records the input as a finding.
///
/// With `NEARBY_FUZZ_WRITE_SEEDS=DIR` in the environment, `main()` writes ``seeds`` into `DIR`
/// (one file each, `seed-NNN`) and exits: how `make fuzz-seeds` regenerates `Fuzz/Corpus/`.
public protocol FuzzTarget {
    /// Inputs to start from: the test vectors of the parser, as bytes.
    static var seeds: [[UInt8]] { get }

    /// Runs the parser on one input; traps only when an invariant does not hold.
    static func fuzz(_ input: [UInt8])
}

extension FuzzTarget {
    /// Hands control to libFuzzer (or writes the seeds, see ``FuzzTarget``); never returns.
    public static func main() {
        if let directory = getenv("NEARBY_FUZZ_WRITE_SEEDS").map({ String(cString: $0) }) {
            exit(FuzzSeeds.write(seeds, to: directory) ? 0 : 1)
        }
        FuzzDriver.body = { input in fuzz(input) }
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzDriverTestOneInput))
    }
}

/// The running target's body; set once in `main()` before libFuzzer starts (single-threaded).
enum FuzzDriver {
    nonisolated(unsafe) static var body: (([UInt8]) -> Void)?
}

/// libFuzzer's callback: one input, copied into an array (parsers take `[UInt8]` or collections).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDriverTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    FuzzDriver.body?(input)
    return 0
}

/// Writes seed files.
enum FuzzSeeds {
    static func write(_ seeds: [[UInt8]], to directory: String) -> Bool {
        var partial = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") {
            partial += "/" + component
            mkdir(partial, 0o755)
        }
        for (index, seed) in seeds.enumerated() {
            let number = String(index)
            let path = directory + "/seed-" + String(repeating: "0", count: max(0, 3 - number.count)) + number
            guard let file = fopen(path, "wb") else {
                perror(path)
                return false
            }
            let written = seed.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
            fclose(file)
            guard written == seed.count else { return false }
        }
        print("wrote \(seeds.count) seeds to \(directory)")
        return true
    }
}
