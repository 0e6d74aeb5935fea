/// A stack of values being collected for the collections still open while a tree is built.
///
/// A collection pushes its items above those of the collections around it; when it ends, its
/// items are moved (not copied) into an array of exactly their count, and the stack drops back.
/// One buffer serves the whole tree, so no collection over-allocates, none regrows, and no item
/// is retained twice.
final class ScratchStack<Element> {
    private var base: UnsafeMutablePointer<Element>
    private var capacity: Int
    /// The number of values on the stack.
    private(set) var count = 0

    init(capacity: Int = 64) {
        self.capacity = max(1, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    /// Pushes `element`.
    func push(_ element: consuming Element) {
        if count == capacity {
            let grown = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
            grown.moveInitialize(from: base, count: count)
            base.deallocate()
            base = grown
            capacity *= 2
        }
        (base + count).initialize(to: element)
        count += 1
    }

    /// The values from `start` to the top, to read in place.
    func withValues<Result>(from start: Int, _ body: (UnsafeBufferPointer<Element>) throws -> Result) rethrows -> Result
    {
        try body(UnsafeBufferPointer(start: base + start, count: count - start))
    }

    /// Moves the values from `start` to the top into an array of exactly their count, and drops
    /// them from the stack.
    func popArray(from start: Int) -> [Element] {
        var values: [Element] = []
        values.reserveCapacity(count - start)
        for index in start..<count {
            values.append((base + index).move())
        }
        count = start
        return values
    }
}
