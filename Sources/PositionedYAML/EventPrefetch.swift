import CYAML
import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs libyaml's parse on a thread of its own, ahead of the one thread that reads the events.
///
/// Loading a large target file is two jobs of about the same size: libyaml's parse, and building
/// and validating what it parsed. One after the other they took twice libyaml's time; side by
/// side, on two cores, little more than libyaml's. The events go over in batches (one hand-over
/// per few hundred events, not per event) through a queue of a few batches, so the parser runs
/// at most that far ahead and memory stays bounded whatever the file's size.
///
/// What goes over is libyaml's own events, parsed straight into the batch: the parsing thread
/// does libyaml's work and nothing else, and the reader copies each event into Swift values
/// (``LibYAMLParser``) and frees it. Issue 42: the copying, on the parsing thread, had made it
/// the busier of the two (697 M instructions for 10,000 cases against libyaml's bare 577 M).
///
/// The reader sees exactly the parser's events and its error, in order: a batch ends after the
/// stream's end or the first error, and the parser is not called again. After that last event,
/// `next()` answers `nil` (the stream has ended), as libyaml does. `stop()` ends the thread early
/// (the reader gave up, say at a limit) and waits for it, so the source's memory may be freed
/// afterwards.

package final class EventPrefetch {
    /// Events per batch: few enough that the reader starts at once (about half a millisecond of
    /// parsing), many enough that the threads rarely wait for each other: with 512, loading
    /// 10,000 cases switched threads some 1,300 times, with 4,096 some 170.
    package static let batchSize = 2048
    /// Batches parsed ahead at most.
    package static let depth = 2

    /// The bytes of scalar text a batch holds: a scalar's text is copied there by the parsing
    /// thread, and libyaml's copy freed on the thread that allocated it (freed on the reading
    /// thread, each one missed the parsing thread's malloc cache and cost both threads more).
    /// A text that does not fit stays libyaml's, freed by the reader.
    static let textCapacity = 64 * 1024

    /// Where a scalar event's `data.scalar.value` lies in a `yaml_event_t`.
    static let scalarValueOffset: Int = {
        func offset<Scalar>(in _: Scalar, of field: KeyPath<Scalar, UnsafeMutablePointer<yaml_char_t>?>) -> Int {
            MemoryLayout<Scalar>.offset(of: field)!
        }
        // The union's members all start where `data` does.
        return MemoryLayout<yaml_event_t>.offset(of: \yaml_event_t.data)!
            + offset(in: yaml_event_t().data.scalar, of: \.value)
    }()

    /// A batch's events, followed by its bytes of scalar text.
    static func allocateBatch() -> UnsafeMutablePointer<yaml_event_t> {
        let bytes = UnsafeMutableRawPointer.allocate(
            byteCount: MemoryLayout<yaml_event_t>.stride * batchSize + textCapacity,
            alignment: MemoryLayout<yaml_event_t>.alignment)
        return bytes.bindMemory(to: yaml_event_t.self, capacity: batchSize)
    }

    /// The scalar text of the batch `items`.
    @inline(__always)
    static func text(of items: UnsafeMutablePointer<yaml_event_t>) -> UnsafeMutablePointer<UInt8> {
        UnsafeMutableRawPointer(items + batchSize).assumingMemoryBound(to: UInt8.self)
    }

    /// Frees `event` of the batch `items`, but not its text if that lies in the batch.
    @inline(__always)
    static func delete(_ event: UnsafeMutablePointer<yaml_event_t>, of items: UnsafeMutablePointer<yaml_event_t>) {
        switch event.pointee.type {
        case YAML_SCALAR_EVENT:
            let value = event.pointee.data.scalar.value
            let text = EventPrefetch.text(of: items)
            if let value, value < text || value > text + textCapacity { free(value) }
            if let anchor = event.pointee.data.scalar.anchor { free(anchor) }
            if let tag = event.pointee.data.scalar.tag { free(tag) }
        case YAML_MAPPING_END_EVENT, YAML_SEQUENCE_END_EVENT:
            break
        default:
            EventSource.delete(event)
        }
    }

    /// libyaml's events as the parsing thread parsed them, each freed by the reader once copied;
    /// then the error that ended the parse, if one did.
    private struct Batch: @unchecked Sendable {
        let items: UnsafeMutablePointer<yaml_event_t>
        let count: Int
        let failure: LocatedProblem?

        /// Whether the batch is the last: it ends with the stream's end or an error.
        var isLast: Bool {
            failure != nil || (count > 0 && EventPrefetch.endsStream(items[count - 1]))
        }

        /// Frees the batch and the events from `start` on that were not read.
        func free(from start: Int) {
            EventPrefetch.deleteEvents(items, from: start, count: count)
        }
    }

    /// Frees the events of `items` from `start` to `count` and then `items`.
    static func deleteEvents(_ items: UnsafeMutablePointer<yaml_event_t>, from start: Int, count: Int) {
        for index in start..<count { delete(items + index, of: items) }
        UnsafeMutableRawPointer(items).deallocate()
    }

    /// Whether `event` is the stream's last: its end, or the nothing libyaml gives after it.
    static func endsStream(_ event: yaml_event_t) -> Bool {
        event.type == YAML_STREAM_END_EVENT || event.type == YAML_NO_EVENT
    }

    /// What the two threads share.
    private final class Channel: Sendable {
        struct Queue {
            var batches: [Batch] = []
            var isStopped = false
        }

        let queue = Mutex(Queue())
        /// Free places in the queue; the parsing thread waits on it when it is full.
        let freePlaces = DispatchSemaphore(value: 0)
        /// Batches in the queue; the reader waits on it when it is empty.
        let readyBatches = DispatchSemaphore(value: 0)
        /// Signalled once, when the parsing thread has ended.
        let finished = DispatchSemaphore(value: 0)

        init() {
            // Counted up from zero, not created with the count: a semaphore left below the value
            // it was created with is a fatal error in libdispatch, and batches may be left unread.
            for _ in 0..<EventPrefetch.depth { freePlaces.signal() }
        }

        /// The parsing thread: batches of the source's events until its last one, or a stop.
        func produce(_ source: EventSource) {
            var isLast = false
            while !isLast {
                // Parsed straight into the batch, each event checked for the stream's end only.
                let items = EventPrefetch.allocateBatch()
                let text = EventPrefetch.text(of: items)
                let valueOffset = EventPrefetch.scalarValueOffset
                var textCount = 0
                var count = 0
                var failure: LocatedProblem?
                while count < EventPrefetch.batchSize {
                    let event = items + count
                    do throws(LocatedProblem) {
                        try source.parseOnly(into: event)
                    } catch {
                        failure = error
                        isLast = true
                        break
                    }
                    let type = event.pointee.type
                    if type == YAML_SCALAR_EVENT {
                        // A scalar longer than the limit is refused by the reader (see next()).
                        let length = event.pointee.data.scalar.length
                        // Wrapping arithmetic: both counts stay within the batch's capacities.
                        if length <= EventPrefetch.textCapacity &- textCount,
                            let value = event.pointee.data.scalar.value
                        {
                            let target = text + textCount
                            memcpy(target, value, length)
                            free(value)
                            // Stored alone: through the union, Swift writes the scalar's fields back.
                            (UnsafeMutableRawPointer(event) + valueOffset).storeBytes(
                                of: target, as: UnsafeMutablePointer<yaml_char_t>?.self)
                            textCount &+= length
                        }
                    } else if type == YAML_STREAM_END_EVENT || type == YAML_NO_EVENT {
                        count &+= 1
                        isLast = true
                        break
                    }
                    count &+= 1
                }
                source.release?.look(source.parser, input: source.input)
                let batch = Batch(items: items, count: count, failure: failure)
                freePlaces.wait()
                let isStopped = queue.withLock { queue in
                    if !queue.isStopped { queue.batches.append(batch) }
                    return queue.isStopped
                }
                if isStopped {
                    batch.free(from: 0)
                    return
                }
                readyBatches.signal()
            }
        }
    }

    private let channel = Channel()
    // The reader's side; only the reading thread touches it. The batch being read is kept as its
    // parts, so reading an event copies no struct with a problem in it.
    /// The events of the batch being read (`nil` before the first and after the last).
    private var items: UnsafeMutablePointer<yaml_event_t>?
    private var count = 0
    private var position = 0
    /// The error that ends the batch being read, thrown once its events are read.
    private var failure: LocatedProblem?
    /// Whether the last batch has been taken (it ends with the stream's end or an error).
    private var tookLast = false
    private var isStopped = false
    /// The longest scalar allowed, checked as each is read.
    private let maximumScalarLength: Int

    /// Starts parsing with `source`, which is used on the parsing thread only, until it gives
    /// the stream's end or throws.
    init(source: EventSource) {
        maximumScalarLength = source.maximumScalarLength
        let channel = channel
        DispatchQueue.global(qos: .userInitiated).async {
            channel.produce(source)
            channel.finished.signal()
        }
    }

    deinit {
        stop()
    }

    /// The next event, copied into Swift values (its libyaml event freed), or the error that
    /// ended the parse. `.streamEnd` past the stream's end (and after `stop()`).
    @inline(__always)
    func next() throws(LocatedProblem) -> ParsedEvent {
        if position == count {
            guard try takeBatch() else { return .streamEnd }
        }
        // takeBatch() answered true: there is a batch with an event left.
        let batch = items.unsafelyUnwrapped
        let event = batch + position
        if event.pointee.type == YAML_SCALAR_EVENT && event.pointee.data.scalar.length > maximumScalarLength {
            try refuseLongScalar(event)
        }
        let value = EventSource.copy(event)
        EventPrefetch.delete(event, of: batch)
        position += 1
        return value
    }

    /// Throws the problem of `event`, a scalar longer than the limit, as the parser on the
    /// reader's thread does (``EventSource/parseWithoutRelease(into:)``): here, so the parsing
    /// thread spends nothing on the check. Nothing is read after it: the batch is freed and the
    /// stream has ended; the parsing thread, which may have gone on, is stopped with `stop()`.
    @inline(never)
    private func refuseLongScalar(_ event: UnsafeMutablePointer<yaml_event_t>) throws(LocatedProblem) {
        let length = event.pointee.data.scalar.length
        let mark = EventSource.mark(event.pointee.start_mark)
        EventPrefetch.deleteEvents(items.unsafelyUnwrapped, from: position, count: count)
        items = nil
        count = 0
        position = 0
        failure = nil
        tookLast = true
        throw LocatedProblem(problem: .scalarTooLong(length: length, limit: maximumScalarLength), mark: mark)
    }

    /// Moves on from the batch read to its end: throws the error it ended with, or takes the
    /// next batch (waiting for it); `false` when there is none.
    private func takeBatch() throws(LocatedProblem) -> Bool {
        while true {
            if let items {
                EventPrefetch.deleteEvents(items, from: position, count: count)
                self.items = nil
                count = 0
                position = 0
            }
            if let failure {
                self.failure = nil
                throw failure
            }
            // Past the last event the stream has ended, as libyaml answers too; after stop()
            // nothing more is read.
            if tookLast || isStopped { return false }
            channel.readyBatches.wait()
            let taken = channel.queue.withLock { $0.batches.removeFirst() }
            channel.freePlaces.signal()
            tookLast = taken.isLast
            items = taken.items
            count = taken.count
            failure = taken.failure
            // A batch may hold no event when it is an error alone: it is thrown above.
            if count > 0 { return true }
        }
    }

    /// Ends the parsing thread, if it still runs, and waits until it has; frees what it parsed
    /// that was not read. Called when done reading (and by `deinit`).
    func stop() {
        guard !isStopped else { return }
        isStopped = true
        channel.queue.withLock { $0.isStopped = true }
        // A place, in case the thread waits for one; it then sees the stop and ends.
        channel.freePlaces.signal()
        channel.finished.wait()
        if let items {
            EventPrefetch.deleteEvents(items, from: position, count: count)
            self.items = nil
            count = 0
            position = 0
        }
        failure = nil
        let left = channel.queue.withLock { queue in
            defer { queue.batches = [] }
            return queue.batches
        }
        for unread in left { unread.free(from: 0) }
    }
}
