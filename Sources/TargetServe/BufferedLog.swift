import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The request log, written by a thread of its own: an event loop only appends a line to memory,
/// and never waits for the log's file, pipe or terminal.
///
/// Lines are gathered for at most `batchInterval` after the first of a batch (one write for a
/// burst, not a system call per request), then written; on a terminal each is written as soon as
/// the thread wakes. The thread sleeps while there is nothing to write (woken through a pipe when
/// the first line of a batch comes), so the log is written within `batchInterval` of each request
/// whatever the event loops are doing. A reader that does not keep up (a full pipe) blocks only
/// the thread; what it has not taken is held up to `maximumHeld` bytes, and the lines past that
/// are counted and said in one line when the log moves again.
package final class BufferedLog: Sendable {
    /// The longest a line waits before it is written, in seconds.
    package static let batchInterval = 0.02
    /// The bytes held for a log that is not read before lines are dropped.
    static let maximumHeld = 8 * 1024 * 1024

    private struct State {
        var bytes: [UInt8] = []
        var dropped = 0
        /// The writer was woken for the lines held (a byte is in the pipe, or it is writing them).
        var woken = false
    }

    private let pending = Mutex(State())
    /// Held while writing: the thread's batches and `flush()` never interleave or reorder.
    private let writing = Mutex(())
    private let immediate: Bool
    private let write: @Sendable ([UInt8]) -> Void
    /// The pipe that wakes the writer (-1 when none could be made: it then looks every
    /// `batchInterval`).
    private let wakeRead: Int32
    private let wakeWrite: Int32

    /// - Parameters:
    ///   - immediate: every line written as soon as the writer wakes (a terminal someone watches).
    ///   - write: writes bytes (whole lines) to the log, on the writer's thread (or `flush()`'s).
    package init(immediate: Bool, write: @escaping @Sendable ([UInt8]) -> Void) {
        self.immediate = immediate
        self.write = write
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends {
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
                _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            }
        }
        wakeRead = ends[0]
        wakeWrite = ends[1]
        startWriter()
    }

    /// Adds `line` (without its line break); never waits for the log.
    package func append(_ line: String) {
        let wake = pending.withLock { state -> Bool in
            guard state.bytes.count + line.utf8.count < Self.maximumHeld else {
                state.dropped += 1
                return false
            }
            state.bytes.append(contentsOf: line.utf8)
            state.bytes.append(UInt8(ascii: "\n"))
            defer { state.woken = true }
            return !state.woken
        }
        if wake, wakeWrite >= 0 {
            var byte: UInt8 = 1
            _ = Glibc.write(wakeWrite, &byte, 1)
        }
    }

    /// Writes what is held, on the caller's thread (at exit).
    package func flush() {
        writing.withLock { _ in
            let (bytes, dropped) = pending.withLock { state -> ([UInt8], Int) in
                defer {
                    state.bytes = []
                    state.dropped = 0
                    state.woken = false
                }
                return (state.bytes, state.dropped)
            }
            if !bytes.isEmpty { write(bytes) }
            if dropped > 0 {
                write(Array("moya-cli: \(dropped) log lines dropped: the log was not read fast enough\n".utf8))
            }
        }
    }

    private func startWriter() {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let started = pthread_create(
            &thread, nil,
            { context in
                guard let context else { return nil }
                // Lives as long as the process: the log is written until it ends.
                Unmanaged<BufferedLog>.fromOpaque(context).takeUnretainedValue().runWriter()
                return nil
            }, context)
        guard started == 0 else {
            Unmanaged<BufferedLog>.fromOpaque(context).release()
            return
        }
        pthread_detach(thread)
    }

    private func runWriter() {
        var readable = pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)
        var drained = [UInt8](repeating: 0, count: 256)
        let interval = timespec(tv_sec: 0, tv_nsec: Int(Self.batchInterval * 1_000_000_000))
        while true {
            if wakeRead >= 0 {
                guard poll(&readable, 1, -1) > 0 else { continue }
                while read(wakeRead, &drained, drained.count) > 0 {}
            }
            if !immediate || wakeRead < 0 {
                var request = interval
                var remaining = timespec()
                while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
            }
            flush()
        }
    }
}
