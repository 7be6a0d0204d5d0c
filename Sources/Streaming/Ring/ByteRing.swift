/// A fixed-capacity FIFO of bytes (a ring buffer). Not thread-safe: `ByteRingStream` guards it
/// with its lock.
struct ByteRing: Sendable {
    private var storage: [UInt8]
    private var head = 0
    /// Bytes currently held.
    private(set) var count = 0

    init(capacity: Int) {
        storage = [UInt8](repeating: 0, count: max(1, capacity))
    }

    var capacity: Int { storage.count }
    var freeSpace: Int { storage.count - count }
    var isEmpty: Bool { count == 0 }

    /// Appends as many bytes of `bytes[from...]` as fit; returns how many were taken.
    mutating func write(_ bytes: [UInt8], from start: Int) -> Int {
        let take = min(freeSpace, bytes.count - start)
        guard take > 0 else { return 0 }
        var tail = (head + count) % storage.count
        var index = start
        storage.withUnsafeMutableBufferPointer { ring in
            bytes.withUnsafeBufferPointer { source in
                var remaining = take
                while remaining > 0 {
                    let run = min(remaining, ring.count - tail)
                    (ring.baseAddress! + tail).update(from: source.baseAddress! + index, count: run)
                    index += run
                    remaining -= run
                    tail = (tail + run) % ring.count
                }
            }
        }
        count += take
        return take
    }

    /// Moves up to `buffer.count` bytes into `buffer`; returns how many.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let take = min(count, buffer.count)
        guard take > 0 else { return 0 }
        var copied = 0
        storage.withUnsafeBufferPointer { ring in
            while copied < take {
                let run = min(take - copied, ring.count - head)
                (buffer.baseAddress! + copied).copyMemory(from: ring.baseAddress! + head, byteCount: run)
                copied += run
                head = (head + run) % ring.count
            }
        }
        count -= take
        if count == 0 { head = 0 }
        return take
    }
}
