/// A fixed-capacity FIFO of the most recent samples (a ring buffer), allocated once at
/// initialisation. Appending to a full window overwrites the oldest sample, so filters that
/// keep a window never allocate per sample.
struct SampleWindow<Element: Sendable>: Sendable {
    private var storage: [Element]
    private var start = 0
    /// Number of samples held, 0 ... ``capacity``.
    private(set) var count = 0
    /// Maximum number of samples held.
    let capacity: Int

    /// Creates an empty window; `filler` only initialises the storage.
    init(capacity: Int, filler: Element) {
        self.capacity = max(capacity, 1)
        self.storage = Array(repeating: filler, count: self.capacity)
    }

    /// Appends a sample, dropping the oldest one when the window is full.
    @inline(__always)
    mutating func append(_ element: Element) {
        if count < capacity {
            var index = start + count
            if index >= capacity { index -= capacity }
            storage[index] = element
            count += 1
        } else {
            storage[start] = element
            start += 1
            if start == capacity { start = 0 }
        }
    }

    /// The `i`-th sample, oldest first (`0 ..< count`).
    @inline(__always)
    subscript(i: Int) -> Element {
        var index = start + i
        if index >= capacity { index -= capacity }
        return storage[index]
    }

    /// The oldest sample, if any.
    var first: Element? { count == 0 ? nil : self[0] }

    /// The most recent sample, if any.
    var last: Element? { count == 0 ? nil : self[count - 1] }

    /// Empties the window (keeps the storage).
    mutating func removeAll() {
        start = 0
        count = 0
    }
}
