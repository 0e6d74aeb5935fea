import OrderedJSON
import PositionedYAML

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A case's `sample:` / `samples:`.
extension TargetFileValidator {
    static let sampleKeys = ["json", "text", "file", "error", "status", "headers"]
    private static let sampleBodyKeys = ["json", "text", "file", "error"]

    /// What the warning for a case without a sample says after the case's name.
    static let noSampleConsequence = "; --stub answers 200 with an empty body"

    /// Whether `diagnostic` is the warning for a case without a sample (which `list`, `check` and
    /// `serve` count in one line rather than show one by one).
    package static func isNoSampleWarning(_ diagnostic: Diagnostic) -> Bool {
        diagnostic.severity == .warning && diagnostic.message.hasPrefix("case '")
            && diagnostic.message.hasSuffix("' has no sample" + noSampleConsequence)
    }

    /// The one line for `count` cases of `file` without a sample.
    package static func noSampleSummary(file: String, count: Int) -> String {
        "\(file): warning: \(count) cases have no sample; --stub answers them with 200 and an empty body (moya-cli validate \(file) lists them)"
    }

    /// The case's samples, the default first; warns when there are none.
    mutating func readSamples(_ fields: Fields, caseName: String, caseMark: Mark) -> [NamedSample] {
        if let sampleNode = fields["sample"] {
            if let samplesMark = fields.keyMark("samples") {
                error("a case has either 'sample' or 'samples', not both", at: samplesMark)
            }
            return readSample(sampleNode, name: "default", caseName: caseName).map {
                [NamedSample(name: "default", sample: $0)]
            } ?? []
        }
        guard let samplesNode = fields["samples"] else {
            warning("case '\(caseName)' has no sample" + Self.noSampleConsequence, at: caseMark)
            return []
        }
        guard let entries = entries(samplesNode, expected: "a map of sample names to samples") else { return [] }
        if entries.isEmpty {
            error("'samples' is empty; give at least one sample or remove the key", at: samplesNode.mark)
        }
        var samples: [NamedSample] = []
        samples.reserveCapacity(entries.count)
        for index in entries.indices {
            let name = entries.keyText(at: index)
            if name.isEmpty
                || !name.utf8.allSatisfy({
                    TemplateParser.isIdentifierByte($0, first: false) || $0 == UInt8(ascii: "-")
                })
            {
                error(
                    "invalid sample name '\(name)'; use letters, digits, '_' and '-'", at: entries.key(at: index).mark)
                continue
            }
            if let sample = readSample(entries.value(at: index), name: name, caseName: caseName) {
                samples.append(NamedSample(name: name, sample: sample))
            }
        }
        return samples
    }

    private mutating func readSample(_ node: Node, name: String, caseName: String) -> SampleSpec? {
        let position = TemplatePosition(name: "a sample", placeholderRole: .sample, allowsEnvironment: false)
        if case .scalar(let scalar) = node {
            guard case .string(let text) = scalar.resolved else {
                typeError(expected: "a string or a map such as {json: ..., status: 200}", found: node)
                return nil
            }
            let body = template(text: text, scalar: scalar, at: position)
            return SampleSpec(outcome: .response(status: 200, headers: [], body: .text(body)), mark: node.mark)
        }
        guard
            let fields = fields(
                node, allowed: Self.sampleKeys,
                context: name == "default"
                    ? "in the sample of case '\(caseName)'" : "in sample '\(name)' of case '\(caseName)'",
                expected: "a string or a map such as {json: ..., status: 200}")
        else { return nil }
        let bodyPositions = fields.positions(ofKeysIn: Self.sampleBodyKeys)
        if bodyPositions.count > 1 {
            let bodies = fields.entries(withKeyIn: Self.sampleBodyKeys)
            let found = bodies.map { "'\($0.key.text)'" }.joined(separator: " and ")
            error("a sample has at most one of json, text, file, error; found \(found)", at: bodies[1].key.mark)
            return nil
        }
        if let errorNode = fields["error"] {
            var isValid = true
            for key in ["status", "headers"] {
                if let mark = fields.keyMark(key) {
                    error("'\(key)' cannot go with 'error': an error sample has no response", at: mark)
                    isValid = false
                }
            }
            guard let text = string(errorNode) else { return nil }
            guard let kind = SampleErrorKind(name: text) else {
                let hint = Suggestion.didYouMean(text, in: SampleErrorKind.acceptedNames)
                error(
                    "unknown error kind '\(text)'"
                        + (hint.isEmpty ? "; kinds: " + SampleErrorKind.acceptedNames.joined(separator: ", ") : hint),
                    at: errorNode.mark)
                return nil
            }
            return isValid ? SampleSpec(outcome: .networkError(kind), mark: fields.mark) : nil
        }
        var status = 200
        if let statusNode = fields["status"] {
            guard let code = integer(statusNode) else { return nil }
            guard (100...599).contains(code) else {
                error("status \(code) is out of range (100...599)", at: statusNode.mark)
                return nil
            }
            status = code
        }
        let headers = fields["headers"].map { readHeaders($0, at: position) } ?? []
        var body = SampleSpec.Body.empty
        if let first = bodyPositions.first {
            let bodyNode = fields.entries.value(at: first)
            switch fields.entries.keyText(at: first) {
            case "json":
                guard let json = jsonTemplate(bodyNode, role: .sample, positionName: "a sample") else { return nil }
                // Held as text when the case is kept (`check`, `call`); a case handed on and
                // dropped (`validate`, `list`) would only pay for the serializing.
                body = .json(caseHandler == nil ? json.compacted() : json)
            case "text":
                guard let text = template(bodyNode, at: position) else { return nil }
                body = .text(text)
            default:
                guard let path = template(bodyNode, at: position), checkSampleFile(path) else { return nil }
                body = .file(path: path)
            }
        }
        return SampleSpec(outcome: .response(status: status, headers: headers, body: body), mark: fields.mark)
    }

    /// A literal sample file must exist; one ending in `.json` must be valid JSON.
    private mutating func checkSampleFile(_ path: Template) -> Bool {
        guard checkFileExists(path, what: "sample file"), let literal = path.literalText else { return true }
        guard literal.lowercased().hasSuffix(".json") else { return true }
        switch RelativeFile.jsonProblem(at: resolvedPath(literal), probes: probes) {
        case nil:
            return true
        case .unreadable:
            error("sample file '\(literal)' cannot be read", at: path.mark)
        case .invalid(let error):
            self.error(
                "sample file '\(literal)' is not valid JSON: \(literal):\(error.line):\(error.column): \(error.message)",
                at: path.mark)
        }
        return false
    }
}
