/// Topic helpers: safe topic levels and topic-filter matching (MQTT 3.1.1 §4.7).
public enum MQTTTopic {
    /// `text` made safe as one topic level and as a Home Assistant object id: lowercase ASCII
    /// letters, digits, `_` and `-`; every other character (`/`, `+`, `#`, `:`, spaces,
    /// non-ASCII) becomes `_`, runs of `_` collapse, and `_` is trimmed at both ends
    /// (`"Kitchen tag"` → `kitchen_tag`, `F0:F1:F2:F3:F4:F5` → `f0_f1_f2_f3_f4_f5`). An empty
    /// result becomes `_`.
    public static func level(_ text: String) -> String {
        var out = ""
        var lastUnderscore = false
        for scalar in text.unicodeScalars {
            let value = scalar.value
            let keep: Unicode.Scalar?
            switch value {
            case 0x30...0x39, 0x61...0x7A, 0x2D: keep = scalar
            case 0x41...0x5A: keep = Unicode.Scalar(value + 0x20)
            default: keep = nil
            }
            if let keep {
                out.unicodeScalars.append(keep)
                lastUnderscore = false
            } else if !lastUnderscore {
                out.unicodeScalars.append("_")
                lastUnderscore = true
            }
        }
        while out.hasPrefix("_") { out.removeFirst() }
        while out.hasSuffix("_") { out.removeLast() }
        return out.isEmpty ? "_" : out
    }

    /// `true` if `topic` matches the subscription `filter` (`+` one level, `#` the rest; topics
    /// starting with `$` match no filter starting with a wildcard).
    public static func matches(_ filter: String, _ topic: String) -> Bool {
        let filterLevels = filter.split(separator: "/", omittingEmptySubsequences: false)
        let topicLevels = topic.split(separator: "/", omittingEmptySubsequences: false)
        if topic.hasPrefix("$"), let first = filterLevels.first, first == "+" || first == "#" { return false }
        var index = 0
        for level in filterLevels {
            if level == "#" { return true }
            guard index < topicLevels.count else { return false }
            if level != "+" && level != topicLevels[index] { return false }
            index += 1
        }
        return index == topicLevels.count
    }

    /// The levels of a topic (`nearby/hall/status` → `["nearby", "hall", "status"]`).
    public static func levels(_ topic: String) -> [Substring] {
        topic.split(separator: "/", omittingEmptySubsequences: false)
    }
}
