import MoyaKit
import Synchronization

/// A progress bar on stderr for uploads and downloads, only on a terminal.
final class ProgressBar: Sendable {
    private struct State {
        var lastPercent = -1
        var drew = false
    }

    private let state = Mutex(State())

    func update(_ progress: TransferProgress) {
        state.withLock { state in
            let width = 30
            let line: String
            if let fraction = progress.fractionCompleted {
                let percent = Int(fraction * 100)
                guard percent != state.lastPercent else { return }
                state.lastPercent = percent
                let filled = Int(fraction * Double(width))
                line =
                    "[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
                    + "] \(percent)% "
                    + Self.byteCount(progress.completedBytes)
            } else {
                line = Self.byteCount(progress.completedBytes)
            }
            state.drew = true
            StandardStream.error.write("\r\u{1B}[2K" + line)
        }
    }

    func finish() {
        state.withLock { state in
            if state.drew { StandardStream.error.write("\r\u{1B}[2K") }
        }
    }

    static func byteCount(_ bytes: Int64) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0
            ? "\(bytes) B" : String(Int(value * 10) / 10) + "." + String(Int(value * 10) % 10) + " " + units[unit]
    }
}
