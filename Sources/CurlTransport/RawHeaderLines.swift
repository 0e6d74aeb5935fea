import HTTPTypes

/// The header lines of a transfer as libcurl reported them, kept as bytes while the transfer runs
/// and read into fields (`ResponseHeaderCollector`) only when the head is needed.
///
/// Reading a line into an `HTTPField` validates its name and value: about half of what a small
/// response costs the thread that drives every transfer. Kept raw, the lines are read by whoever
/// takes the response (the completion's queue, in a `check --live` sweep), and the result is the
/// one reading them as they came would give: the same lines go through the same collector, in order.
struct RawHeaderLines {
    private var bytes: [UInt8] = []
    /// Where each line ends in `bytes`.
    private var ends: [Int] = []

    /// Keeps one raw line, CRLF included.
    mutating func append(_ line: UnsafeBufferPointer<UInt8>) {
        if bytes.isEmpty {
            // A small response's head in one allocation, not six as the array doubles.
            bytes.reserveCapacity(512)
            ends.reserveCapacity(16)
        }
        bytes.append(contentsOf: line)
        ends.append(bytes.count)
    }

    /// The lines read, in order, by a `ResponseHeaderCollector`.
    var collected: ResponseHeaderCollector {
        var collector = ResponseHeaderCollector()
        bytes.withUnsafeBufferPointer { all in
            var start = 0
            for end in ends {
                collector.consume(UnsafeBufferPointer(rebasing: all[start..<end]))
                start = end
            }
        }
        return collector
    }
}
