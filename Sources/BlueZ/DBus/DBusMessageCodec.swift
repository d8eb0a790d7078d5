import CSDBus
#if canImport(Glibc)
import Glibc
#endif

/// Reads and writes ``DBusValue``s from and to sd-bus messages. Runs on the connection's thread
/// only (sd-bus objects are not thread-safe).
enum DBusMessageCodec {
    static func code(_ character: Unicode.Scalar) -> CChar { CChar(UInt8(ascii: character)) }

    // MARK: Writing

    /// Appends `values` to `message`.
    /// - Throws: ``DBusError`` (errno) when sd-bus refuses a value (an invalid object path or
    ///   signature, a closed file descriptor).
    static func append(_ values: [DBusValue], to message: OpaquePointer) throws(DBusError) {
        for value in values { try append(value, to: message) }
    }

    static func append(_ value: DBusValue, to m: OpaquePointer) throws(DBusError) {
        var r: Int32 = 0
        switch value {
        case .byte(var v): r = sdBus.messageAppendBasic(m, code("y"), &v)
        case .boolean(let b):
            var v: Int32 = b ? 1 : 0
            r = sdBus.messageAppendBasic(m, code("b"), &v)
        case .int16(var v): r = sdBus.messageAppendBasic(m, code("n"), &v)
        case .uint16(var v): r = sdBus.messageAppendBasic(m, code("q"), &v)
        case .int32(var v): r = sdBus.messageAppendBasic(m, code("i"), &v)
        case .uint32(var v): r = sdBus.messageAppendBasic(m, code("u"), &v)
        case .int64(var v): r = sdBus.messageAppendBasic(m, code("x"), &v)
        case .uint64(var v): r = sdBus.messageAppendBasic(m, code("t"), &v)
        case .double(var v): r = sdBus.messageAppendBasic(m, code("d"), &v)
        case .string(let text): r = text.withCString { sdBus.messageAppendBasic(m, code("s"), $0) }
        case .objectPath(let text): r = text.withCString { sdBus.messageAppendBasic(m, code("o"), $0) }
        case .signature(let text): r = text.withCString { sdBus.messageAppendBasic(m, code("g"), $0) }
        case .unixFD(var fd): r = sdBus.messageAppendBasic(m, code("h"), &fd)
        case .bytes(let bytes):
            r = bytes.withUnsafeBytes { sdBus.messageAppendArray(m, code("y"), $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!, $0.count) }
        case .array(let element, let items):
            try check(element.withCString { sdBus.messageOpenContainer(m, code("a"), $0) }, "open array a\(element)")
            for item in items { try append(item, to: m) }
            r = sdBus.messageCloseContainer(m)
        case .dictionary(let key, let value, let entries):
            try check("{\(key)\(value)}".withCString { sdBus.messageOpenContainer(m, code("a"), $0) }, "open dictionary")
            for entry in entries {
                try check("\(key)\(value)".withCString { sdBus.messageOpenContainer(m, code("e"), $0) }, "open dictionary entry")
                try append(entry.key, to: m)
                try append(entry.value, to: m)
                try check(sdBus.messageCloseContainer(m), "close dictionary entry")
            }
            r = sdBus.messageCloseContainer(m)
        case .structure(let members):
            try check(members.map(\.signature).joined().withCString { sdBus.messageOpenContainer(m, code("r"), $0) }, "open structure")
            for member in members { try append(member, to: m) }
            r = sdBus.messageCloseContainer(m)
        case .variant(let inner):
            try check(inner.signature.withCString { sdBus.messageOpenContainer(m, code("v"), $0) }, "open variant")
            try append(inner, to: m)
            r = sdBus.messageCloseContainer(m)
        }
        try check(r, "append \(value.signature)")
    }

    static func check(_ r: Int32, _ what: String) throws(DBusError) {
        if r < 0 { throw DBusError(errno: -r, operation: what) }
    }

    // MARK: Reading

    /// Reads every remaining value of `message`'s body.
    /// - Throws: ``DBusError`` when the body cannot be read (a malformed message).
    static func readAll(_ m: OpaquePointer) throws(DBusError) -> [DBusValue] {
        var values: [DBusValue] = []
        while let value = try readNext(m) { values.append(value) }
        return values
    }

    /// The next value of the current container, `nil` at its end.
    static func readNext(_ m: OpaquePointer) throws(DBusError) -> DBusValue? {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        let r = sdBus.messagePeekType(m, &type, &contents)
        try check(r, "peek")
        if r == 0 { return nil }
        let inner = contents.map { String(cString: $0) } ?? ""
        switch UInt8(bitPattern: type) {
        case UInt8(ascii: "y"):
            var v: UInt8 = 0
            try check(sdBus.messageReadBasic(m, type, &v), "read y")
            return .byte(v)
        case UInt8(ascii: "b"):
            var v: Int32 = 0
            try check(sdBus.messageReadBasic(m, type, &v), "read b")
            return .boolean(v != 0)
        case UInt8(ascii: "n"):
            var v: Int16 = 0
            try check(sdBus.messageReadBasic(m, type, &v), "read n")
            return .int16(v)
        case UInt8(ascii: "q"):
            var v: UInt16 = 0
            try check(sdBus.messageReadBasic(m, type, &v), "read q")
            return .uint16(v)
        case UInt8(ascii: "i"):
            var v: Int32 = 0
            try check(sdBus.messageReadBasic(m, type, &v), "read i")
            return .int32(v)
        case UInt8(ascii: "u"):
            var v: UInt32 = 0
            try check(sdBus.messageReadBasic(m, type, &v), "read u")
            return .uint32(v)
        case UInt8(ascii: "x"):
            var v: Int64 = 0
            try check(sdBus.messageReadBasic(m, type, &v), "read x")
            return .int64(v)
        case UInt8(ascii: "t"):
            var v: UInt64 = 0
            try check(sdBus.messageReadBasic(m, type, &v), "read t")
            return .uint64(v)
        case UInt8(ascii: "d"):
            var v: Double = 0
            try check(sdBus.messageReadBasic(m, type, &v), "read d")
            return .double(v)
        case UInt8(ascii: "s"), UInt8(ascii: "o"), UInt8(ascii: "g"):
            var p: UnsafePointer<CChar>?
            try check(sdBus.messageReadBasic(m, type, &p), "read string")
            let text = p.map { String(cString: $0) } ?? ""
            switch UInt8(bitPattern: type) {
            case UInt8(ascii: "s"): return .string(text)
            case UInt8(ascii: "o"): return .objectPath(text)
            default: return .signature(text)
            }
        case UInt8(ascii: "h"):
            var fd: Int32 = -1
            try check(sdBus.messageReadBasic(m, type, &fd), "read h")
            // The message owns its descriptor: keep a duplicate.
            let copy = fcntl(fd, F_DUPFD_CLOEXEC, 3)
            if copy < 0 { throw DBusError(errno: errno, operation: "duplicate a received file descriptor") }
            return .unixFD(copy)
        case UInt8(ascii: "a"):
            if inner == "y" {
                var pointer: UnsafeRawPointer?
                var size = 0
                try check(sdBus.messageReadArray(m, code("y"), &pointer, &size), "read ay")
                guard let pointer, size > 0 else { return .bytes([]) }
                return .bytes(Array(UnsafeRawBufferPointer(start: pointer, count: size)))
            }
            try check(inner.withCString { sdBus.messageEnterContainer(m, code("a"), $0) }, "enter a\(inner)")
            if inner.hasPrefix("{") {
                let body = String(inner.dropFirst().dropLast())
                let key = String(body.prefix(1))
                let value = String(body.dropFirst())
                var entries: [DBusDictionaryEntry] = []
                while true {
                    let r = body.withCString { sdBus.messageEnterContainer(m, code("e"), $0) }
                    try check(r, "enter dictionary entry")
                    if r == 0 { break }
                    guard let k = try readNext(m), let v = try readNext(m) else {
                        throw DBusError(name: DBusError.malformed, message: "a dictionary entry without key or value")
                    }
                    entries.append(DBusDictionaryEntry(k, v))
                    try check(sdBus.messageExitContainer(m), "exit dictionary entry")
                }
                try check(sdBus.messageExitContainer(m), "exit dictionary")
                return .dictionary(key: key, value: value, entries)
            }
            var items: [DBusValue] = []
            while let item = try readNext(m) { items.append(item) }
            try check(sdBus.messageExitContainer(m), "exit array")
            return .array(element: inner, items)
        case UInt8(ascii: "r"):
            try check(inner.withCString { sdBus.messageEnterContainer(m, code("r"), $0) }, "enter structure")
            var members: [DBusValue] = []
            while let member = try readNext(m) { members.append(member) }
            try check(sdBus.messageExitContainer(m), "exit structure")
            return .structure(members)
        case UInt8(ascii: "v"):
            try check(inner.withCString { sdBus.messageEnterContainer(m, code("v"), $0) }, "enter variant")
            guard let value = try readNext(m) else {
                throw DBusError(name: DBusError.malformed, message: "an empty variant")
            }
            try check(sdBus.messageExitContainer(m), "exit variant")
            return .variant(value)
        default:
            throw DBusError(name: DBusError.malformed, message: "unsupported D-Bus type '\(Character(Unicode.Scalar(UInt8(bitPattern: type))))'")
        }
    }

    /// Closes every descriptor inside `values` (values nobody took).
    static func closeDescriptors(_ values: [DBusValue]) {
        for value in values {
            switch value {
            case .unixFD(let fd): close(fd)
            case .array(_, let items), .structure(let items): closeDescriptors(items)
            case .variant(let inner): closeDescriptors([inner])
            case .dictionary(_, _, let entries): closeDescriptors(entries.flatMap { [$0.key, $0.value] })
            default: break
            }
        }
    }
}
