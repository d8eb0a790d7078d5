#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Angle helpers (degrees). Internal: the public API speaks degrees throughout.
enum Angles {
    /// Wraps an angle in degrees into -180 ..< 180.
    @inline(__always)
    static func wrap(_ degrees: Double) -> Double {
        degrees - 360 * ((degrees + 180) / 360).rounded(.down)
    }

    /// Degrees to radians.
    @inline(__always)
    static func radians(_ degrees: Double) -> Double { degrees * (Double.pi / 180) }

    /// Sine and cosine of an angle in degrees.
    @inline(__always)
    static func sinCos(degrees: Double) -> (sin: Double, cos: Double) {
        let r = radians(degrees)
        return (sin(r), cos(r))
    }
}

/// Small statistics helpers over unsafe buffers: sorting without allocation.
enum Sorting {
    /// Sorts `buffer[0..<count]` ascending in place (insertion sort: windows are small).
    @inline(__always)
    static func insertionSort(_ buffer: UnsafeMutableBufferPointer<Double>, count: Int) {
        guard count > 1 else { return }
        for i in 1..<count {
            let key = buffer[i]
            var j = i - 1
            while j >= 0 && buffer[j] > key {
                buffer[j + 1] = buffer[j]
                j -= 1
            }
            buffer[j + 1] = key
        }
    }

    /// The median of the sorted values `buffer[0..<count]` (`count` > 0).
    @inline(__always)
    static func medianOfSorted(_ buffer: UnsafeMutableBufferPointer<Double>, count: Int) -> Double {
        let mid = count / 2
        return count % 2 == 1 ? buffer[mid] : (buffer[mid - 1] + buffer[mid]) / 2
    }
}
