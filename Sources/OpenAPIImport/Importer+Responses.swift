import TargetModel
import TextSafety

extension Importer {
    /// `validation` (the documented success codes) and `samples` (one per documented status, the
    /// success first), so `--stub` and `check` work offline.
    func mapResponses(_ operation: Operation) -> [YAMLText.Entry] {
        guard let responsesNode = operation.node["responses"] else {
            note(
                operation.node, "no responses documented: no samples", case: operation.caseName,
                operation: operation.label)
            return []
        }
        guard let responses = responsesNode.members else {
            problem(responsesNode, "'responses' is not a map")
            return []
        }
        struct Documented {
            var status: Int
            var isRange: Bool
            var node: SpecNode
        }
        var documented: [Documented] = []
        var fallback: SpecNode?
        for (code, response) in responses {
            noteLinks(of: response, code: code, operation: operation)
            if code == "default" {
                fallback = response
                continue
            }
            if code.hasPrefix("x-") { continue }
            if let status = Int(code), (100...599).contains(status) {
                documented.append(Documented(status: status, isRange: false, node: response))
            } else if code.count == 3, let first = code.first?.wholeNumberValue, (1...5).contains(first),
                code.dropFirst().uppercased() == "XX"
            {
                documented.append(Documented(status: first * 100, isRange: true, node: response))
            } else {
                problem(
                    response,
                    "response code '\(DisplayText.escaped(code))' is not a status (100-599), a range such as 2XX, or default"
                )
            }
        }
        var success = documented.filter { (200...399).contains($0.status) }
        let others = documented.filter { !(200...399).contains($0.status) && $0.status >= 200 }
        var entries: [YAMLText.Entry] = []
        if success.isEmpty, let fallback {
            // Only a default response: it stands for the success.
            success = [Documented(status: 200, isRange: true, node: fallback)]
        }
        if success.contains(where: \.isRange) || success.isEmpty && fallback != nil {
            entries.append(YAMLText.Entry("validation", .string("successCodes")))
        } else if !success.isEmpty {
            entries.append(YAMLText.Entry("validation", .list(success.map { .int($0.status) })))
        } else {
            // Written out: a case without `validation` would fail every status outside 2xx.
            entries.append(YAMLText.Entry("validation", .string("none")))
            note(
                responsesNode, "no success response documented: no validation", case: operation.caseName,
                operation: operation.label)
        }
        var samples: [YAMLText.Entry] = []
        var taken = Set<String>()
        for item in success + others {
            guard let response = resolved(item.node, operation: operation) else { continue }
            let name = Naming.unique(Naming.sampleName(status: item.status), in: &taken)
            samples.append(YAMLText.Entry(name, sample(response, status: item.status, operation: operation)))
        }
        if fallback != nil, !success.isEmpty, success.first?.node.pointer != fallback?.pointer {
            note(
                fallback!, "the default response has no status: no sample for it", case: operation.caseName,
                operation: operation.label)
        }
        if !samples.isEmpty { entries.append(YAMLText.Entry("samples", .map(samples))) }
        return entries
    }

    /// A sample: the response's example, else one made from its schema; JSON when it has a JSON
    /// media type, text for text, else only the status.
    private func sample(_ response: SpecNode, status: Int, operation: Operation) -> YAMLText {
        var members: [YAMLText.Entry] = [YAMLText.Entry("status", .int(status))]
        let media: (type: String, node: SpecNode)?
        if isSwagger2 {
            let producesNode = operation.node["produces"] ?? root["produces"]
            guard areMediaTypes(producesNode?.elements ?? []) else { return .map(members) }
            let produces = producesNode?.elements?.compactMap(\.string) ?? ["application/json"]
            let type = produces.first { MediaType($0).mentionsJSON } ?? produces.first ?? "application/json"
            media = response["schema"] != nil || response["examples"] != nil ? (type, response) : nil
        } else {
            let content = response["content"]?.members ?? []
            guard areMediaTypes(content.map(\.value), keys: content.map(\.key)) else { return .map(members) }
            media =
                content.first { MediaType($0.key).mentionsJSON }.map { ($0.key, $0.value) }
                ?? content.first { MediaType($0.key).isText }.map { ($0.key, $0.value) }
                ?? content.first.map { ($0.key, $0.value) }
        }
        guard let media, status != 204, status != 304 else { return .map(members) }
        let mediaType = MediaType(media.type)
        let isJSON = mediaType.mentionsJSON || media.type == "*/*"
        var example: SpecNode?
        if isSwagger2 {
            example = response["examples"]?[media.type] ?? response["examples"]?.members?.first?.value
        } else {
            example =
                media.node["example"]
                ?? media.node["examples"]?.members?.first.flatMap { resolved($0.value, operation: operation)?["value"] }
        }
        if isJSON {
            var body: YAMLText?
            if let example {
                body = JSONExample.parsed(example, templated: true) ?? SchemaSampler.value(example, templated: true)
            } else if let schema = media.node["schema"] {
                var sampler = SchemaSampler(document: document, direction: .response, templated: true)
                body = sampler.sample(schema)
                for reference in sampler.unresolved {
                    note(
                        schema, "external $ref '\(reference)' in the response schema is left out of the sample",
                        case: operation.caseName, operation: operation.label)
                }
            }
            if let body, SampleBody.fitsInline(body) {
                members.append(YAMLText.Entry("json", body))
            } else if body != nil {
                note(
                    response,
                    "the response example nests deeper than a target file holds (\(SampleBody.maximumInlineDepth) levels): the sample has no body",
                    case: operation.caseName, operation: operation.label)
            }
        } else if mediaType.isText,
            let text = example?.text
                ?? media.node["schema"].flatMap({ resolved($0, operation: operation)?["example"]?.text })
        {
            members.append(YAMLText.Entry("text", .string(SchemaSampler.literal(text))))
        }
        // A JSON sample says application/json by itself; any other type (`application/problem+json`
        // too) is kept as the sample's Content-Type.
        if !mediaType.isPlainJSON, HeaderValue.isSafe(media.type), !mediaType.isWildcard {
            members.append(
                YAMLText.Entry(
                    "headers", .map([YAMLText.Entry("Content-Type", .string(SchemaSampler.literal(media.type)))])))
        }
        return .map(members)
    }

    /// A note for each link of a response: a follow-up request a target file writes as a chained
    /// example (`after:` with `captures`), which is not made from it.
    private func noteLinks(of response: SpecNode, code: String, operation: Operation) {
        guard let links = resolved(response, operation: operation)?["links"]?.members else { return }
        for (name, link) in links {
            note(
                link,
                "link '\(DisplayText.escaped(name))' of response \(DisplayText.escaped(code)) is not imported (a chained example with captures can do what it says)",
                case: operation.caseName, operation: operation.label)
        }
    }
}
