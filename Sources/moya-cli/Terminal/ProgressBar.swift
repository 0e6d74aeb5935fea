import Dispatch
import MoyaKit
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The progress of one transfer on stderr, as curl, HTTPie and xh show it: once the transfer has
/// run for about a second, one line redrawn in place (at most ten times a second) with the bytes
/// so far, the total when known (Content-Length, the upload's size), the percentage, the rate
/// over the last few seconds and the time left. `CallRunner` makes one only for a terminal.
///
/// The transfer's reports only store the counters; the line is made and drawn by a thread of the
/// bar's own that sleeps in poll(2) until the first second has passed, then wakes ten times a
/// second, so a fast transfer costs that thread's start and a wake-up, and no drawing. (Not a
/// Dispatch timer: the first one in a process starts Dispatch's own threads, epoll and timer
/// descriptors, a millisecond or two of every call on a terminal.) `finish()` must be called:
/// it wakes the thread and waits for it to end.
final class ProgressBar: Sendable {
    /// How long a transfer runs before the line shows, and how often it is redrawn, in ms.
    static let delay: Int32 = 1000
    static let interval: Int32 = 100
    /// The rate is measured over this many seconds, so it follows the transfer but does not jump.
    static let rateWindow = 3.0

    private let completed = Atomic<Int64>(0)
    /// -1 while the total is unknown.
    private let total = Atomic<Int64>(-1)
    private let isUpload = Atomic<Bool>(false)
    private let meter: Mutex<Meter>
    /// The terminal's width, read again at each redraw (the window may be resized).
    private let width: @Sendable () -> Int
    private let isFinished = Atomic<Bool>(false)
    /// A pipe `finish()` writes to, to wake the drawing thread at once.
    private let wakeUp: (read: Int32, write: Int32)
    /// The drawing thread; set once by `start()`, read by `finish()`, both on the caller's thread.
    nonisolated(unsafe) private var thread: pthread_t?

    /// The rate's samples: what had been transferred when.
    private struct Meter {
        let started: Double
        var samples: [(seconds: Double, bytes: Int64)]
        /// The direction measured; `nil` before the first redraw, which takes the one reported.
        var isUpload: Bool?
    }

    /// Starts the drawing thread; the line shows after `delay` unless `finish()` comes first.
    init(width: @escaping @Sendable () -> Int) {
        self.width = width
        let started = Self.now()
        meter = Mutex(Meter(started: started, samples: [(started, 0)]))
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        } else {
            ends = [-1, -1]
        }
        wakeUp = (ends[0], ends[1])
        ProgressLine.activate()
        start()
    }

    private func start() {
        guard wakeUp.read >= 0 else { return }
        let context = Unmanaged.passRetained(self).toOpaque()
        var created = pthread_t()
        let status = pthread_create(
            &created, nil,
            { context in
                guard let context else { return nil }
                let bar = Unmanaged<ProgressBar>.fromOpaque(context)
                bar.takeUnretainedValue().drawUntilFinished()
                bar.release()
                return nil
            }, context)
        if status == 0 {
            thread = created
        } else {
            Unmanaged<ProgressBar>.fromOpaque(context).release()
        }
    }

    /// Takes the transfer's latest count: the only work done for each piece of a body.
    func update(_ progress: TransferProgress) {
        completed.store(progress.completedBytes, ordering: .relaxed)
        total.store(progress.totalBytes ?? -1, ordering: .relaxed)
        isUpload.store(progress.isUpload, ordering: .relaxed)
    }

    /// Stops the drawing thread and clears the line.
    func finish() {
        guard !isFinished.exchange(true, ordering: .acquiringAndReleasing) else { return }
        if let thread {
            var byte: UInt8 = 1
            _ = write(wakeUp.write, &byte, 1)
            pthread_join(thread, nil)
        }
        if wakeUp.read >= 0 {
            close(wakeUp.read)
            close(wakeUp.write)
        }
        ProgressLine.deactivate()
    }

    /// The drawing thread: sleeps until the first redraw, then redraws until woken by `finish()`.
    private func drawUntilFinished() {
        var timeout = Self.delay
        while !isFinished.load(ordering: .acquiring) {
            var descriptor = pollfd(fd: wakeUp.read, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, timeout)
            if ready > 0 || (ready < 0 && errno != EINTR) { return }
            if ready == 0 && !isFinished.load(ordering: .acquiring) {
                redraw()
                timeout = Self.interval
            }
        }
    }

    private func redraw() {
        let bytes = completed.load(ordering: .relaxed)
        let total = total.load(ordering: .relaxed)
        let isUpload = isUpload.load(ordering: .relaxed)
        let now = Self.now()
        let (rate, elapsed) = meter.withLock { meter in
            if meter.isUpload == nil {
                meter.isUpload = isUpload
            } else if meter.isUpload != isUpload {
                // From the request body to the answer: a new count, a new rate.
                meter = Meter(started: meter.started, samples: [(now, 0)], isUpload: isUpload)
            }
            meter.samples.append((now, bytes))
            while meter.samples.count > 2, now - meter.samples[1].seconds >= Self.rateWindow {
                meter.samples.removeFirst()
            }
            let first = meter.samples[0]
            let span = now - first.seconds
            let rate = span > 0 ? Double(max(0, bytes - first.bytes)) / span : 0
            return (rate, now - meter.started)
        }
        let line = Self.line(
            completed: bytes, total: total >= 0 ? total : nil, rate: rate, elapsed: elapsed, isUpload: isUpload,
            width: width())
        ProgressLine.draw(line)
    }

    private static func now() -> Double {
        Double(DispatchTime.now().uptimeNanoseconds) / 1e9
    }
}
