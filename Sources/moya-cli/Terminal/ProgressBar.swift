import Dispatch
import MoyaKit
import Synchronization

/// The progress of one transfer on stderr, as curl, HTTPie and xh show it: once the transfer has
/// run for about a second, one line redrawn in place (at most ten times a second) with the bytes
/// so far, the total when known (Content-Length, the upload's size), the percentage, the rate
/// over the last few seconds and the time left. `CallRunner` makes one only for a terminal.
///
/// The transfer's reports only store two counters; the line is made and drawn by a timer, so a
/// fast transfer, done before the first second, costs nothing beyond those stores.
final class ProgressBar: Sendable {
    /// How long a transfer runs before the line shows, and how often it is redrawn.
    static let delay = DispatchTimeInterval.seconds(1)
    static let interval = DispatchTimeInterval.milliseconds(100)
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
    /// Dispatch sources are thread-safe (`cancel` from any thread), but not marked `Sendable`.
    nonisolated(unsafe) private let timer: any DispatchSourceTimer

    /// The rate's samples: what had been transferred when.
    private struct Meter {
        let started: Double
        var samples: [(seconds: Double, bytes: Int64)]
        /// The direction measured; `nil` before the first redraw, which takes the one reported.
        var isUpload: Bool?
    }

    /// Starts the timer; the line shows after `delay` unless `finish()` comes first.
    init(width: @escaping @Sendable () -> Int) {
        self.width = width
        let started = Self.now()
        meter = Mutex(Meter(started: started, samples: [(started, 0)]))
        ProgressLine.activate()
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "moya-cli.progress"))
        timer.schedule(deadline: .now() + Self.delay, repeating: Self.interval, leeway: .milliseconds(20))
        timer.setEventHandler { [weak self] in self?.redraw() }
        timer.resume()
    }

    deinit {
        finish()
    }

    /// Takes the transfer's latest count: the only work done for each piece of a body.
    func update(_ progress: TransferProgress) {
        completed.store(progress.completedBytes, ordering: .relaxed)
        total.store(progress.totalBytes ?? -1, ordering: .relaxed)
        isUpload.store(progress.isUpload, ordering: .relaxed)
    }

    /// Stops the timer and clears the line.
    func finish() {
        guard !isFinished.exchange(true, ordering: .acquiringAndReleasing) else { return }
        timer.cancel()
        ProgressLine.deactivate()
    }

    private func redraw() {
        guard !isFinished.load(ordering: .acquiring) else { return }
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
        // Finished meanwhile? Then `ProgressLine` draws nothing.
        ProgressLine.draw(line)
    }

    private static func now() -> Double {
        Double(DispatchTime.now().uptimeNanoseconds) / 1e9
    }
}
