import Dispatch
import Synchronization

/// Runs an event source on a thread of its own, ahead of the one thread that reads the events.
///
/// Loading a large target file is two jobs of about the same size: libyaml's parse, and building
/// and validating what it parsed. One after the other they took twice libyaml's time; side by
/// side, on two cores, little more than libyaml's. The events go over in batches (one hand-over
/// per few hundred events, not per event) through a queue of a few batches, so the parser runs
/// at most that far ahead and memory stays bounded whatever the file's size.
///
/// The reader sees exactly the source's events and its error, in order: a batch ends after the
/// stream's end or the first error, and the source is not called again. After that last event,
/// `next()` answers `.streamEnd`, as libyaml does. `stop()` ends the thread early (the reader
/// gave up, say at a limit) and waits for it, so the source's memory may be freed afterwards.
package final class EventPrefetch {
    /// Events per batch: few enough that the reader starts at once (about half a millisecond of
    /// parsing), many enough that the threads rarely wait for each other: with 512, loading
    /// 10,000 cases switched threads some 1,300 times, with 4,096 some 170.
    package static let batchSize = 2048
    /// Batches parsed ahead at most.
    package static let depth = 2

    typealias Item = Result<ParsedEvent, LocatedProblem>

    /// Events written by the parsing thread and moved out by the reader, so an event is neither
    /// copied nor retained on its way over.
    private struct Batch: @unchecked Sendable {
        let items: UnsafeMutablePointer<Item>
        var count = 0

        init() {
            items = .allocate(capacity: EventPrefetch.batchSize)
        }

        /// Frees the batch and the items from `start` on that were not moved out.
        func free(from start: Int) {
            (items + start).deinitialize(count: count - start)
            items.deallocate()
        }
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
        func produce(_ source: () throws(LocatedProblem) -> ParsedEvent) {
            var isLast = false
            while !isLast {
                var batch = Batch()
                while batch.count < EventPrefetch.batchSize && !isLast {
                    let item: Item
                    do throws(LocatedProblem) {
                        let event = try source()
                        if case .streamEnd = event { isLast = true }
                        item = .success(event)
                    } catch {
                        item = .failure(error)
                        isLast = true
                    }
                    (batch.items + batch.count).initialize(to: item)
                    batch.count += 1
                }
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
    // The reader's side; only the reading thread touches it.
    private var batch: Batch?
    private var position = 0
    /// Whether the last batch has been taken (it ends with the stream's end or an error).
    private var tookLast = false
    private var isStopped = false

    /// Starts parsing with `source`, which is called on the parsing thread only, until it gives
    /// `.streamEnd` or throws.
    init(source: @escaping @Sendable () throws(LocatedProblem) -> ParsedEvent) {
        let channel = channel
        DispatchQueue.global(qos: .userInitiated).async {
            channel.produce(source)
            channel.finished.signal()
        }
    }

    deinit {
        stop()
    }

    /// The next event, or the error the source threw.
    func next() throws(LocatedProblem) -> ParsedEvent {
        if batch == nil {
            // Past the last event the stream has ended, as libyaml answers too; after stop()
            // nothing more is read.
            if tookLast || isStopped { return .streamEnd }
            channel.readyBatches.wait()
            let taken = channel.queue.withLock { $0.batches.removeFirst() }
            channel.freePlaces.signal()
            switch taken.items[taken.count - 1] {
            case .success(.streamEnd), .failure: tookLast = true
            default: break
            }
            batch = taken
            position = 0
        }
        guard let current = batch else { return .streamEnd }
        let item = (current.items + position).move()
        position += 1
        if position == current.count {
            current.free(from: position)
            batch = nil
        }
        return try item.get()
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
        batch?.free(from: position)
        batch = nil
        let left = channel.queue.withLock { queue in
            defer { queue.batches = [] }
            return queue.batches
        }
        for unread in left { unread.free(from: 0) }
    }
}
