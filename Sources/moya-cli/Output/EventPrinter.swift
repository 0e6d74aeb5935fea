import OrderedJSON
import TargetModel
import TextSafety

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How `BodySink` prints each event of a stream as it arrives: `--keypath` applied to its data
/// (one result a line), `--format jsonl` (one `{event, id, data}` a line), JSON lines pretty on a
/// terminal, or else the event as it came; `--max-events` ends the transfer after N.
struct EventPrinter: Sendable {
    var keyPath: BodyKeyPath?
    var jsonLines: Bool
    var maxEvents: Int?
    /// `--stream`: any body is read as lines.
    var forcesLines: Bool
    var onTerminal: Bool
    var colors: Bool
    /// The longest line kept while it arrives.
    var lineLimit: Int

    /// Whether a body of `kind` is printed event by event (rather than as it is, or whole).
    func readsEvents(of kind: StreamEventSplitter.Kind) -> Bool {
        keyPath != nil || jsonLines || maxEvents != nil || (onTerminal && kind == .lines)
    }

    /// Whether a body with no events is kept whole for `ResponseWriter` (`--keypath`, `jsonl`).
    var keepsOtherBodies: Bool { keyPath != nil || jsonLines }

    /// What `event` prints, line break included; `nil` for an event `--keypath` misses (said on
    /// stderr, numbered from 1).
    func text(of event: StreamEvent, kind: StreamEventSplitter.Kind, number: Int) -> String? {
        if jsonLines {
            let line = Self.jsonLine(event).serializedString()
            return (onTerminal ? DisplayText.escaped(line) : line) + "\n"
        }
        if let keyPath {
            do {
                return valueText(try ResponseWriter.value(at: keyPath, in: Data(event.data.utf8)))
            } catch let failure as CommandFailure {
                StandardStream.error.write("moya-cli: event \(number): \(failure.message)\n")
                return nil
            } catch {
                return nil
            }
        }
        if kind == .lines {
            if onTerminal, let json = try? JSONValue(parsing: Data(event.data.utf8)) {
                return ResponseWriter.terminalJSON(json, colors: colors) + "\n"
            }
            return shown(event.data) + "\n"
        }
        var lines: [String] = []
        if let name = event.name { lines.append("event: " + name) }
        if let id = event.id { lines.append("id: " + id) }
        lines += event.data.split(separator: "\n", omittingEmptySubsequences: false).map { "data: " + $0 }
        return shown(lines.joined(separator: "\n")) + "\n\n"
    }

    /// `--format jsonl`'s line of an event.
    static func jsonLine(_ event: StreamEvent) -> JSONValue {
        .object([
            ("event", event.name.map(JSONValue.string) ?? .null), ("id", event.id.map(JSONValue.string) ?? .null),
            ("data", .string(event.data))
        ])
    }

    /// `--keypath`'s value as a single call prints it: strings unquoted, the rest compact JSON.
    private func valueText(_ value: JSONSpan) -> String {
        let text = value.stringValue ?? String(decoding: value.compactBytes(), as: UTF8.self)
        return shown(text) + "\n"
    }

    private func shown(_ text: String) -> String {
        onTerminal ? DisplayText.escaped(text, keepingLineBreaks: true) : text
    }
}
