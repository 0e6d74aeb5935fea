import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The one line on stderr a `ProgressBar` redraws in place, and its manners towards everything
/// else written to the terminal meanwhile: any other write to stderr, or to stdout when that is
/// the terminal too, first clears the line (`StandardStream` asks), so no output lands behind a
/// half-drawn bar; the bar comes back at its next redraw.
///
/// Process-wide, as the standard streams are. While no bar is active, a write costs one atomic
/// load and takes no lock.
enum ProgressLine {
    private struct State {
        /// Whether a bar has the line (between `activate` and `deactivate`).
        var isOn = false
        /// Whether the line is on the screen now.
        var isDrawn = false
        /// Set when the body itself streams to the terminal: the body is the progress then.
        var isHeld = false
        /// Whether stdout is a terminal (its writes clear the line), as when the bar started.
        var outputIsTerminal = false
    }

    private static let isActive = Atomic<Bool>(false)
    private static let state = Mutex(State())

    /// Starts a bar's turn on the line.
    static func activate() {
        let outputIsTerminal = Terminal.isTerminal(StandardStream.output.fileDescriptor)
        state.withLock { $0 = State(isOn: true, outputIsTerminal: outputIsTerminal) }
        isActive.store(true, ordering: .releasing)
    }

    /// Ends it: the line is cleared, and writes no longer look at it.
    static func deactivate() {
        state.withLock { state in
            clear(&state)
            state = State()
        }
        isActive.store(false, ordering: .releasing)
    }

    /// Keeps the bar off the screen for the rest of this turn (the body streams to the terminal).
    static func hold() {
        guard isActive.load(ordering: .acquiring) else { return }
        state.withLock { state in
            clear(&state)
            state.isHeld = true
        }
    }

    /// Draws `text` (numbers and fixed words only: nothing from a server) over the line.
    static func draw(_ text: String) {
        state.withLock { state in
            // A redraw that was under way when the bar finished draws nothing.
            guard state.isOn, !state.isHeld else { return }
            show("\r" + text + "\u{1B}[K")
            state.isDrawn = true
        }
    }

    /// Runs `body`, a write to `fileDescriptor`, with the line cleared first when the write goes
    /// to the terminal the line is on; no other line is drawn while it runs.
    static func clearingLine<Result, Failure: Error>(
        before fileDescriptor: Int32, _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        guard isActive.load(ordering: .acquiring) else { return try body() }
        return try state.withLock { (state) throws(Failure) -> Result in
            if fileDescriptor == 2 || state.outputIsTerminal { clear(&state) }
            return try body()
        }
    }

    private static func clear(_ state: inout State) {
        guard state.isDrawn else { return }
        show("\r\u{1B}[K")
        state.isDrawn = false
    }

    /// Straight to stderr: a failure there has nowhere to be reported.
    private static func show(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let count = write(2, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return }
                offset += count
            }
        }
    }
}
