import Synchronization
import TargetModel
import TargetSpec
import TextSafety

/// The summary on stderr: one line per item as soon as it and every item before it are done (so
/// the order is the plan's however many jobs run), a progress line on a terminal, totals last.
package final class HumanReporter: Sendable {
    private struct State {
        /// The lines of results received and not printed yet (those waiting for an earlier one),
        /// by index: a few, not a slot for every item of the plan.
        var pending: [Int: String] = [:]
        var nextToPrint = 0
        var done = 0
        var failed = 0
        /// Text made printable while another thread was writing, which that thread writes next.
        var unwritten = ""
        /// Whether a thread is writing: one at a time, in order, and outside the lock.
        var isWriting = false
    }

    private let items: [CheckItem]
    private let idWidth: Int
    private let colors: Bool
    private let showsProgress: Bool
    private let state: Mutex<State>
    private let write: @Sendable (String) -> Void

    /// A reporter for `items` that hands its text to `write` (standard error, say): with ANSI
    /// `colors`, and a progress line (for a terminal) when `showsProgress`.
    package init(items: [CheckItem], colors: Bool, showsProgress: Bool, write: @escaping @Sendable (String) -> Void) {
        self.write = write
        self.items = items
        idWidth = min(48, items.map(\.id.count).max() ?? 0)
        self.colors = colors
        self.showsProgress = showsProgress
        state = Mutex(State())
    }

    /// Takes the result of item `index`; prints what is now printable.
    package func receive(_ index: Int, _ result: CheckResult) {
        // Made by the thread that has the result, outside the lock the others wait on.
        let resultLine = line(for: items[index], result)
        let failed = result.outcome == .failed
        // The lock is not held while writing (a write to a slow terminal or pipe would stall every
        // worker): the first thread with text writes it and then whatever the others made
        // printable meanwhile, in order, until none is left.
        var text: String? = state.withLock { state in
            state.pending[index] = resultLine
            state.done += 1
            if failed { state.failed += 1 }
            if showsProgress { state.unwritten += "\r\u{1B}[2K" }
            while state.nextToPrint < items.count, let ready = state.pending.removeValue(forKey: state.nextToPrint) {
                state.unwritten += ready
                state.nextToPrint += 1
            }
            if showsProgress && state.done < items.count {
                state.unwritten +=
                    "[\(state.done)/\(items.count)]" + (state.failed > 0 ? " \(state.failed) failed" : "")
            }
            return Self.takeUnwritten(&state)
        }
        while let next = text {
            write(next)
            text = state.withLock { state in
                state.isWriting = false
                return Self.takeUnwritten(&state)
            }
        }
    }

    /// The text to write, when there is some and no other thread writes (the caller then does).
    private static func takeUnwritten(_ state: inout State) -> String? {
        guard !state.isWriting, !state.unwritten.isEmpty else { return nil }
        state.isWriting = true
        defer { state.unwritten = "" }
        return state.unwritten
    }

    /// The totals line.
    package func finish(_ summary: CheckSummary) {
        for invalid in summary.invalidFiles {
            var text =
                Self.pad(DisplayText.escaped(invalid.id), idWidth) + "  "
                + (colors ? Self.color(.failed) + "fail\u{1B}[0m" : "fail")
                + String(repeating: " ", count: 9) + "-    " + Self.leftPad("-", 8) + "  invalid target file "
                + DisplayText.escaped(invalid.file) + "\n"
            for problem in invalid.problems { text += "    " + DisplayText.escaped(problem) + "\n" }
            write(text)
        }
        var parts = [
            "\(summary.count(.passed)) passed", "\(summary.count(.failed) + summary.invalidFiles.count) failed"
        ]
        if summary.count(.skipped) > 0 { parts.append("\(summary.count(.skipped)) skipped") }
        if summary.count(.notCovered) > 0 { parts.append("\(summary.count(.notCovered)) not covered") }
        let shard = summary.shard.map { ", shard \($0.index)/\($0.count)" } ?? ""
        let checks = summary.results.count
        write(
            "check (\(summary.isLive ? "live" : "offline")\(shard)): " + parts.joined(separator: ", ")
                + "; \(checks) check\(checks == 1 ? "" : "s") in \(Self.duration(summary.duration))\n")
    }

    /// `github.userProfile#1  pass  200  12 ms  reason`, then further reasons indented. Reasons
    /// quote servers and target files: their control characters are shown escaped, so each
    /// reason stays one line and nothing reaches the terminal raw.
    func line(for item: CheckItem, _ result: CheckResult) -> String {
        let word = result.outcome.word
        let id = DisplayText.escaped(item.id)
        let status = result.statusCode.map(String.init) ?? "-"
        let duration = result.duration.map(Self.duration) ?? "-"
        let first = result.reasons.first.map { DisplayText.escaped($0) }
        // Laid out in bytes, made a string once: as eight strings appended one to another the
        // line was a third of an offline check's work per case.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(id.utf8.count + idWidth + 48 + (first?.utf8.count ?? 0))
        Self.append(id, paddedTo: idWidth, to: &bytes)
        bytes += "  ".utf8
        if colors {
            bytes += Self.color(result.outcome).utf8
            bytes += word.utf8
            bytes += "\u{1B}[0m".utf8
        } else {
            bytes += word.utf8
        }
        Self.appendSpaces(13 - word.count, to: &bytes)
        Self.append(status, paddedTo: 4, to: &bytes)
        bytes.append(UInt8(ascii: " "))
        Self.appendSpaces(8 - Self.displayWidth(of: duration), to: &bytes)
        bytes += duration.utf8
        if let first {
            bytes += "  ".utf8
            bytes += first.utf8
        }
        bytes.append(UInt8(ascii: "\n"))
        for reason in result.reasons.dropFirst() {
            bytes += "    ".utf8
            bytes += DisplayText.escaped(reason).utf8
            bytes.append(UInt8(ascii: "\n"))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `count` spaces (none when it is not positive).
    private static func appendSpaces(_ count: Int, to bytes: inout [UInt8]) {
        if count > 0 { bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: count)) }
    }

    /// ``pad(_:_:)`` of `piece`, appended.
    private static func append(_ piece: String, paddedTo width: Int, to bytes: inout [UInt8]) {
        bytes += piece.utf8
        appendSpaces(width - displayWidth(of: piece), to: &bytes)
    }

    static func color(_ outcome: CheckResult.Outcome) -> String {
        switch outcome {
        case .passed: "\u{1B}[32m"
        case .failed: "\u{1B}[31m"
        case .skipped, .notCovered: "\u{1B}[33m"
        }
    }

    static func pad(_ text: String, _ width: Int) -> String {
        let count = displayWidth(of: text)
        return count >= width ? text : text + String(repeating: " ", count: width - count)
    }

    static func leftPad(_ text: String, _ width: Int) -> String {
        let count = displayWidth(of: text)
        return count >= width ? text : String(repeating: " ", count: width - count) + text
    }

    /// The characters in `text`: its bytes when it is ASCII without `\r` (ids, statuses and
    /// durations nearly always are; `\r\n` would be one character), which spares counting
    /// graphemes on every line of a large check.
    private static func displayWidth(of text: String) -> Int {
        text.utf8.allSatisfy { $0 < 0x80 && $0 != 0x0D } ? text.utf8.count : text.count
    }

    /// `0.4 ms`, `12 ms`, `1.25 s`.
    static func duration(_ seconds: Double) -> String {
        let milliseconds = seconds * 1000
        if milliseconds < 10 { return decimal(milliseconds, places: 1) + " ms" }
        if milliseconds < 1000 { return "\(Int(milliseconds.rounded())) ms" }
        return decimal(seconds, places: 2) + " s"
    }

    /// `value` with `places` decimals, without Foundation's formatters.
    static func decimal(_ value: Double, places: Int) -> String {
        var scale = 1
        for _ in 0..<places { scale *= 10 }
        let scaled = Int((value * Double(scale)).rounded())
        let fraction = String(scaled % scale)
        return "\(scaled / scale)." + String(repeating: "0", count: places - fraction.count) + fraction
    }
}
