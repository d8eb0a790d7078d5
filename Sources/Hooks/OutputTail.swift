/// The last bytes of a stream: keeps at most `limit` bytes, dropping older ones.
struct OutputTail: Sendable {
    let limit: Int
    private(set) var bytes: [UInt8] = []
    private(set) var isCut = false

    init(limit: Int) {
        self.limit = max(limit, 0)
    }

    mutating func append(_ chunk: UnsafeRawBufferPointer) {
        guard limit > 0 else {
            if !chunk.isEmpty { isCut = true }
            return
        }
        bytes.append(contentsOf: chunk)
        // Trim in batches so a chatty command costs amortised O(1) per byte.
        if bytes.count > 2 * limit {
            bytes.removeFirst(bytes.count - limit)
            isCut = true
        }
    }

    /// The kept bytes as text (at most `limit` bytes, invalid UTF-8 replaced), `…` in front if
    /// older output was dropped.
    var text: String {
        var kept = bytes[...]
        var cut = isCut
        if kept.count > limit {
            kept = kept.suffix(limit)
            cut = true
        }
        // Do not start in the middle of a UTF-8 sequence.
        while let first = kept.first, cut, first & 0xC0 == 0x80 { kept = kept.dropFirst() }
        return (cut ? "…" : "") + String(decoding: kept, as: UTF8.self)
    }
}
