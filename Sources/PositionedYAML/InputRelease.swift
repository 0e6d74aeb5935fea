import CYAML
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Gives a large file's pages back to the system once libyaml has read past them, so loading a
/// file that is handed on case by case (`validate`, `list`) does not hold the whole file: for a
/// 10,000-case file that was 1.9 MiB of a 10.3 MiB peak, the goal being twice the file over the
/// process's floor.
///
/// The bytes stay where they are; only whole pages behind libyaml's read position (less a
/// margin) are dropped (`madvise(MADV_DONTNEED)`: read again, they are zeros). Nothing reads them
/// afterwards: libyaml copies what it reads, the screen for forbidden bytes has passed over the
/// whole file before the first page goes (`screenPassed`), and what needs the text later (a
/// reader error's mark, the tab hint, the source lines of diagnostics) reads the file again.
package final class InputRelease: @unchecked Sendable {
    // @unchecked: `releasedUpTo`, `hasReleased` and `countdown` are touched only by the thread
    // that parses (one at a time, as `LibYAMLParser` is); `screenPassed` is atomic.

    /// Set once the screen found nothing forbidden; no page goes before.
    let screenPassed = Atomic(false)
    /// The file's bytes again, for what needs the text after pages went (`nil`: unreadable).
    package let reread: () -> [UInt8]?
    /// Where the pages given back so far end, as an offset into the input.
    private var releasedUpTo = 0
    /// Whether any page was given back.
    package private(set) var hasReleased = false

    /// Pages are given back in steps of this many bytes at least, keeping this many behind
    /// libyaml's read position.
    static let step = 256 * 1024
    static let margin = 64 * 1024

    package init(reread: @escaping () -> [UInt8]?) {
        self.reread = reread
    }

    /// Events until `advance` next looks at libyaml's position: it is called for every event.
    private var countdown = 1
    private static let eventsBetweenLooks = 4096

    /// Gives back the whole pages of `input` that libyaml, reading it as a string, has read past
    /// (looking every few thousand events).
    @inline(__always)
    func advance(_ parser: UnsafeMutablePointer<yaml_parser_t>, input: UnsafeBufferPointer<UInt8>) {
        countdown -= 1
        guard countdown == 0 else { return }
        countdown = Self.eventsBetweenLooks
        release(parser, input: input)
    }

    /// Gives back the whole pages of `input` that libyaml has read past, now (the parsing thread
    /// looks once a batch of events).
    func look(_ parser: UnsafeMutablePointer<yaml_parser_t>, input: UnsafeBufferPointer<UInt8>) {
        release(parser, input: input)
    }

    private func release(_ parser: UnsafeMutablePointer<yaml_parser_t>, input: UnsafeBufferPointer<UInt8>) {
        guard let base = input.baseAddress, let current = parser.pointee.input.string.current,
            screenPassed.load(ordering: .acquiring)
        else { return }
        let consumed = UnsafeRawPointer(current) - UnsafeRawPointer(base)
        guard consumed - Self.margin - releasedUpTo >= Self.step else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = UInt(bitPattern: UnsafeRawPointer(base) + releasedUpTo)
        let end = UInt(bitPattern: UnsafeRawPointer(base) + consumed - Self.margin)
        let firstPage = (start + UInt(page) - 1) / UInt(page) * UInt(page)
        let lastPage = end / UInt(page) * UInt(page)
        guard lastPage > firstPage, let pages = UnsafeMutableRawPointer(bitPattern: firstPage) else { return }
        _ = madvise(pages, Int(lastPage - firstPage), MADV_DONTNEED)
        releasedUpTo = Int(lastPage - UInt(bitPattern: UnsafeRawPointer(base)))
        hasReleased = true
    }

    /// The input for an error's mark or hint: as given while nothing was released, else read
    /// again (a UTF-8 byte-order mark dropped, as the input was). `body` is not called when the
    /// file can no longer be read: the error then has no mark or hint rather than a wrong one.
    func text(for input: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        guard hasReleased else { return body(input) }
        guard let bytes = reread() else { return }
        bytes.withUnsafeBufferPointer { all in
            body(
                all.starts(with: SourceScreen.utf8ByteOrderMark) ? UnsafeBufferPointer(rebasing: all.dropFirst(3)) : all
            )
        }
    }
}
