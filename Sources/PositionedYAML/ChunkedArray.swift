/// An array kept in chunks of a fixed number of elements, for the tables a large target file's
/// cases fill one by one (`list`'s cells, the loader's case digests, the duplicate-key index).
/// An array grown by doubling holds up to twice what it needs, and while it grows holds its old
/// and its new buffer at once: near the end of a 10,000-case `list` that was 0.8 MB more at the
/// peak. Chunks are reserved whole, so none is ever copied. Inlinable, so that other modules'
/// uses are specialized for their elements.
///
/// `public`, unlike the rest of this module's shared API (`package`): the release build does not
/// specialize `package` inlinable code in other modules, so at `package` access TargetSpec's case
/// digests and `list`'s table called the generic `append` and subscript, each with a metadata
/// look-up (callgrind, `list` of 10,000 cases: some 30 M instructions more than at `public`).
public struct ChunkedArray<Element>: RandomAccessCollection {
    @usableFromInline let shift: Int
    @usableFromInline let mask: Int
    @usableFromInline var chunks: [[Element]] = []
    @usableFromInline var storedCount = 0

    /// An empty array whose chunks hold `1 << chunkShift` elements each.
    @inlinable
    public init(chunkShift: Int) {
        precondition((0..<31).contains(chunkShift), "a chunk of 2^\(chunkShift) elements")
        shift = chunkShift
        mask = (1 << chunkShift) - 1
    }

    @inlinable
    public var startIndex: Int { 0 }
    @inlinable
    public var endIndex: Int { storedCount }
    @inlinable
    public var count: Int { storedCount }

    @inlinable
    public subscript(position: Int) -> Element {
        get {
            precondition(position >= 0 && position < count, "index \(position) out of 0..<\(count)")
            return chunks[position >> shift][position & mask]
        }
        set {
            precondition(position >= 0 && position < count, "index \(position) out of 0..<\(count)")
            chunks[position >> shift][position & mask] = newValue
        }
    }

    @inlinable
    public mutating func append(_ element: Element) {
        if count & mask == 0 {
            var chunk: [Element] = []
            chunk.reserveCapacity(mask + 1)
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(element)
        storedCount += 1
    }
}
