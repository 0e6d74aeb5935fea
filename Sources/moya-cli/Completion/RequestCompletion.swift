import ArgumentParser
import TargetSpec

/// Shell completion of `request`'s words: an API or a method first; after an API, a method; after
/// its method, the paths the API's cases declare (their templates, `{placeholders}` included).
enum RequestCompletion {
    /// The methods offered; any other token may be typed.
    static let methods = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]

    /// The completion kind for `request`'s words.
    static var kind: CompletionKind {
        CaseCompletion.kind(of: .request, in: ["request"]) { words in
            (try? MoyaCommand.Request.parse(words)).map {
                CaseCompletion.Context(words: $0.words, targetPaths: $0.targetArguments.targetPaths)
            }
        }
    }

    /// The next word after `words` (the items are free text: nothing is offered for them).
    static func candidates(words: [String], catalog: TargetCatalog, prefix: String) -> [String] {
        let api = words.first.flatMap { try? catalog.api(named: $0) }
        switch (words.count, api) {
        case (0, _): return CaseCompletion.matching(catalog.apiNames + methods, prefix)
        case (1, .some): return CaseCompletion.matching(methods, prefix)
        case (2, .some(let api)):
            var seen: Set<String> = []
            let paths = api.cases.map(\.path.source).filter { seen.insert($0).inserted }.sorted()
            return CaseCompletion.matching(paths, prefix)
        default: return []
        }
    }
}
