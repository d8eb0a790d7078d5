import UCI

/// The raw `{type, length, value}` entries of SESSION_SET_APP_CONFIG and CORE_SET_CONFIG, so the
/// virtual UWBS can judge each parameter on its own (a bad length is that parameter's
/// INVALID_PARAM, not a malformed command).
struct UCITLVList: Sendable {
    struct Entry: Sendable {
        var id: UInt8
        var value: ArraySlice<UInt8>
    }

    /// The 4-byte session token before the list, if the command has one.
    var token: UInt32?
    var entries: [Entry]

    /// Parses `[token u32] count u8 {id u8, length u8, value}*`.
    /// - Returns: `nil` if the payload is truncated or has bytes after the last entry.
    init?(payload: [UInt8], hasToken: Bool) {
        var index = 0
        if hasToken {
            guard payload.count >= 4 else { return nil }
            token = UInt32(payload[0]) | UInt32(payload[1]) << 8 | UInt32(payload[2]) << 16 | UInt32(payload[3]) << 24
            index = 4
        }
        guard index < payload.count else { return nil }
        let count = Int(payload[index])
        index += 1
        entries = []
        entries.reserveCapacity(count)
        for _ in 0..<count {
            guard index + 2 <= payload.count else { return nil }
            let id = payload[index]
            let length = Int(payload[index + 1])
            index += 2
            guard index + length <= payload.count else { return nil }
            entries.append(Entry(id: id, value: payload[index..<(index + length)]))
            index += length
        }
        guard index == payload.count else { return nil }
    }
}
