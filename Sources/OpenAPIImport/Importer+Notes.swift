import TargetModel
import TextSafety

/// Notes said once for many cases, and the webhooks a target file cannot hold.
extension Importer {
    /// How many cases share a note before it is said once at the top instead of at each.
    static let repeatedNoteCases = 3

    /// A note said of many cases (a default response without a status, a GET body left out) is
    /// said once at the top, with how many cases and the first of them, and left out of their
    /// comments, so the notes that matter are not buried.
    func collapseRepeatedNotes(in cases: inout [YAMLText.Entry]) {
        var casesByMessage: [String: [String]] = [:]
        var firstNote: [String: ImportNote] = [:]
        var order: [String] = []
        for note in notes where !note.skipsOperation {
            guard let name = note.caseName else { continue }
            if firstNote[note.message] == nil {
                firstNote[note.message] = note
                order.append(note.message)
            }
            if casesByMessage[note.message, default: []].last != name {
                casesByMessage[note.message, default: []].append(name)
            }
        }
        let repeated = Set(order.filter { casesByMessage[$0, default: []].count >= Self.repeatedNoteCases })
        guard !repeated.isEmpty else { return }
        notes.removeAll { $0.caseName != nil && !$0.skipsOperation && repeated.contains($0.message) }
        for message in order where repeated.contains(message) {
            let names = casesByMessage[message, default: []]
            let shown = names.prefix(3).joined(separator: ", ") + (names.count > 3 ? ", …" : "")
            notes.append(
                ImportNote(
                    caseName: nil, operation: nil, pointer: firstNote[message]?.pointer ?? "#",
                    message: "\(message) (\(names.count) cases: \(shown))"))
        }
        let prefix = "import: "
        for index in cases.indices {
            cases[index].comments.removeAll {
                $0.hasPrefix(prefix) && repeated.contains(String($0.dropFirst(prefix.count)))
            }
        }
    }

    /// A note for each webhook (3.1's `webhooks`: requests the API sends, which a target file,
    /// whose cases a client sends, cannot hold); how many there are.
    func noteWebhooks() -> Int {
        guard let webhooks = root["webhooks"] else { return 0 }
        guard let members = webhooks.members else {
            problem(webhooks, "'webhooks' is not a map")
            return 0
        }
        for (name, item) in members {
            let methods = (resolved(item)?.members ?? []).map(\.key).filter { Self.methods.contains($0) }
            let label = methods.isEmpty ? "" : " (" + methods.map { $0.uppercased() }.joined(separator: ", ") + ")"
            note(
                item,
                "webhook '\(DisplayText.escaped(name))'\(label) is a request the API sends, not one a client makes: not imported"
            )
        }
        return members.count
    }
}
