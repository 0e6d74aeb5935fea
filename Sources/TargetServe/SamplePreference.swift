import TargetModel

/// Which sample a request asks for: `Prefer: example=NAME` or `Prefer: code=404` (Prism's
/// convention; several preferences may share the header, comma-separated), else `--sample`.
struct SamplePreference: Sendable, Equatable {
    var example: String?
    var code: Int?
    /// `Prefer: proxy`: the live API answers, not a sample (`serve --proxy`).
    var proxy = false

    init(header: String?) {
        for preference in (header ?? "").split(separator: ",") {
            let pair = preference.split(separator: "=", maxSplits: 1)
            if pair.count == 1, pair[0].trimmingSpaces.lowercased() == "proxy" { proxy = true }
            guard pair.count == 2 else { continue }
            let name = pair[0].trimmingSpaces.lowercased()
            var value = pair[1].trimmingSpaces
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = value.dropFirst().dropLast() }
            switch name {
            case "example": example = String(value)
            case "code": code = Int(value)
            default: continue
            }
        }
    }

    /// The outcome of picking a sample of `spec`.
    enum Choice: Equatable {
        /// The sample's name; `nil` for the case's default (or none).
        case sample(String?)
        /// The request asked for a sample the case lacks: the names (or statuses) it has.
        case unknownExample(String, available: [String])
        case unknownCode(Int, available: [Int])
    }

    /// The sample of `spec` to answer with: the preferred example, else the first sample with
    /// the preferred status, else `serverDefault` (`--sample`) when the case has it, else its default.
    func choice(for spec: CaseSpec, serverDefault: String?) -> Choice {
        if let example {
            guard spec.samples.contains(where: { $0.name == example }) else {
                return .unknownExample(example, available: spec.samples.map(\.name))
            }
            return .sample(example)
        }
        if let code {
            let statuses = spec.samples.compactMap { named -> (String, Int)? in
                guard case .response(let status, _, _) = named.sample.outcome else { return nil }
                return (named.name, status)
            }
            guard let match = statuses.first(where: { $0.1 == code }) else {
                return .unknownCode(code, available: statuses.map(\.1))
            }
            return .sample(match.0)
        }
        if let serverDefault, spec.samples.contains(where: { $0.name == serverDefault }) {
            return .sample(serverDefault)
        }
        return .sample(nil)
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
