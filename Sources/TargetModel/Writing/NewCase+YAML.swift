import OrderedJSON
import TextSafety

/// A ``NewCase`` as the members of a case, with what the command line has to tell the user.
package struct RenderedCase: Sendable {
    /// The case's members (`method`, `path`, `headers`, `auth`, `task`, `sample`, …), in that order.
    package var members: [YAMLText.Entry]
    /// The `${secret:VAR}` references written instead of secret header values, in header order:
    /// the user has to set these variables.
    package var secrets: [SecretReference]
    /// Why no sample was written although one was given (too large, not text); `nil` otherwise.
    package var sampleOmission: String?
    /// The sample's body when it cannot stand in the target file (JSON nested too deep, a key
    /// YAML cannot hold, too large): its path relative to the target file's folder (the case's
    /// `sample: {file: …}`) and its bytes, for the writer to put beside the file.
    package var sampleFile: (path: String, bytes: [UInt8])?
    /// The files the case's `examples` name that are to be copied beside the target file (paths
    /// relative to its folder), for the writer to put there.
    package var exampleFiles: [(path: String, bytes: [UInt8])] = []
    /// The credentials outside headers the case takes as values instead of holding them
    /// (``NewCase/credentialsAsValues(in:isForm:secrets:taken:)``), for the user to be told.
    package var credentialValues: [CredentialValue] = []
    /// Every file for the writer to put beside the target file: the sample's and the examples'.
    package var filesBeside: [(path: String, bytes: [UInt8])] { [sampleFile].compactMap { $0 } + exampleFiles }

    /// A header whose value is read from an environment variable instead of being written.
    package struct SecretReference: Sendable, Equatable {
        package var header: String
        package var variable: String

        package init(header: String, variable: String) {
            self.header = header
            self.variable = variable
        }
    }
}

extension NewCase {
    /// The largest sample body written into the file; a larger one is left out (said in
    /// ``RenderedCase/sampleOmission``) rather than bloating the file with it.
    package static let maximumSampleBytes = SampleBody.maximumInlineBytes

    /// The case's members as target-file YAML.
    /// - Parameters:
    ///   - apiName: names the secret variables (`MOYA_<API>_<HEADER>`).
    ///   - sensitiveHeaders: lowercased names the API's file marks secret (`sensitiveHeaders:`),
    ///     beyond `CredentialNames.sensitiveHeaders`.
    ///   - sampleFileStem: where a body that cannot stand in the file goes, relative to the target
    ///     file's folder, without its extension (`samples/API/CASE`); `nil` (standard output):
    ///     such a body is left out, said in ``RenderedCase/sampleOmission``.
    ///   - emptySecretFallback: write a secret header as `${secret:VAR:-}` (empty when `VAR` is
    ///     unset), as imports do, so the file's own offline `check` passes with no variable set.
    /// - Throws: ``TargetFileEditError/Kind/usage`` for a request a case cannot express (a path
    ///   not starting with `/`, a repeated query parameter next to a body).
    package func render(
        apiName: String, sensitiveHeaders: Set<String> = [], sampleFileStem: String? = nil,
        emptySecretFallback: Bool = false
    ) throws(TargetFileEditError) -> RenderedCase {
        guard path.hasPrefix("/") else {
            throw TargetFileEditError(
                .usage,
                "the path '\(DisplayText.escaped(path))' does not start with '/'; a case's path is relative to the API's base URL"
            )
        }
        guard !path.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else {
            throw TargetFileEditError(
                .usage,
                "the path '\(DisplayText.escaped(path))' holds spaces or control characters; a case's path is written percent-encoded (%20)"
            )
        }
        var members: [YAMLText.Entry] = []
        if let description { members.append(YAMLText.Entry("description", .string(description))) }
        var values: [YAMLText] = []
        var secrets: [RenderedCase.SecretReference] = []
        var secretHeaderNames = Set<String>()
        if let baseURL {
            guard !baseURL.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else {
                throw TargetFileEditError(
                    .usage, "the base URL '\(DisplayText.escaped(baseURL))' holds spaces or control characters")
            }
            members.append(YAMLText.Entry("baseURL", .string(Self.literal(baseURL))))
        }
        members.append(YAMLText.Entry("method", .string(method)))
        members.append(YAMLText.Entry("path", .string(Self.literal(path))))
        if !headers.isEmpty {
            var written: [YAMLText.Entry] = []
            var variables = Set<String>()
            // A header that repeats what a secret header sends (`X-Token` beside `Authorization:
            // Bearer` with the same token) is a secret too.
            let named = Set(
                headers.map { $0.name.lowercased() }.filter {
                    CredentialNames.sensitiveHeaders.contains($0) || sensitiveHeaders.contains($0)
                })
            let sent = Set(sentSecrets(secretHeaderNames: named).map(\.value).filter { !$0.isEmpty })
            for header in headers {
                try Self.checkOneLine(header.name, "the header name")
                try Self.checkOneLine(header.value, "the header \(header.name)'s value")
                let lowercased = header.name.lowercased()
                let afterScheme = header.value.firstIndex(of: " ").map {
                    String(header.value[header.value.index(after: $0)...])
                }
                if header.isSecret || named.contains(lowercased) || sent.contains(header.value)
                    || afterScheme.map(sent.contains) == true
                {
                    secretHeaderNames.insert(lowercased)
                    let variable = Self.uniqueVariable(apiName: apiName, header: header.name, taken: &variables)
                    secrets.append(RenderedCase.SecretReference(header: header.name, variable: variable))
                    written.append(
                        YAMLText.Entry(header.name, .string("${secret:\(variable)\(emptySecretFallback ? ":-" : "")}")))
                } else {
                    written.append(YAMLText.Entry(header.name, .string(Self.literal(header.value))))
                }
            }
            members.append(YAMLText.Entry("headers", .map(written)))
        }
        switch auth {
        case .inherited: break
        case .none: members.append(YAMLText.Entry("auth", .string("none")))
        case .scheme(let name): members.append(YAMLText.Entry("auth", .string(name)))
        }
        var example: [YAMLText.Entry] = []
        var exampleFiles: [(path: String, bytes: [UInt8])] = []
        if let task = try task(
            values: &values, example: &example, exampleFiles: &exampleFiles, fileStem: sampleFileStem)
        {
            members.append(YAMLText.Entry("task", task))
        }
        // No credential stays in the path, the query or the body: each becomes a value.
        var taken = Set(
            values.compactMap { value -> String? in
                if case .map(let entries) = value { return entries.first?.key }
                return nil
            })
        let isForm =
            headers.last { $0.name.lowercased() == "content-type" }?.value.lowercased()
            .hasPrefix("application/x-www-form-urlencoded") ?? false
        let credentialValues = Self.credentialsAsValues(
            in: &members, isForm: isForm, secrets: sentSecrets(secretHeaderNames: secretHeaderNames), taken: &taken)
        values += credentialValues.map { .map([YAMLText.Entry($0.value, .string("string"))]) }
        if !values.isEmpty { members.insert(YAMLText.Entry("values", .list(values)), at: description == nil ? 0 : 1) }
        if !example.isEmpty { members.append(YAMLText.Entry("examples", .list([.map(example)]))) }
        var omission: String?
        var sampleFile: (path: String, bytes: [UInt8])?
        if let sample {
            var secrets = secretValues
            for header in headers where secretHeaderNames.contains(header.name.lowercased()) || header.isSecret {
                secrets.append(header.value)
                // `Bearer TOKEN`, `Basic CREDENTIALS`: the credential alone may be echoed too.
                if let space = header.value.firstIndex(of: " ") {
                    secrets.append(String(header.value[header.value.index(after: space)...]))
                }
            }
            let (written, why, file) = Self.sample(
                sample, redacting: SecretMatcher(secrets: secrets), fileStem: sampleFileStem)
            if let written { members.append(YAMLText.Entry("sample", written)) }
            omission = why
            sampleFile = file
        }
        return RenderedCase(
            members: members, secrets: secrets, sampleOmission: omission, sampleFile: sampleFile,
            exampleFiles: exampleFiles, credentialValues: credentialValues)
    }

    /// The `task` map; `nil` for a request with no body and no query.
    /// `example` gets the case's `file` values' examples (``fileExamples``), `exampleFiles` the
    /// copies they name, under `fileStem` (none without one).
    private func task(
        values: inout [YAMLText], example: inout [YAMLText.Entry], exampleFiles: inout [(path: String, bytes: [UInt8])],
        fileStem: String?
    ) throws(TargetFileEditError) -> YAMLText? {
        let queryGroups = Self.grouped(query)
        let repeatsQuery = queryGroups.contains { $0.values.count > 1 }
        var entries: [YAMLText.Entry] = []
        switch body {
        case .none:
            guard !query.isEmpty else { return nil }
            entries.append(YAMLText.Entry("parameters", Self.parameters(queryGroups)))
            entries.append(YAMLText.Entry("encoding", .string("url")))
            if !["GET", "HEAD", "DELETE"].contains(method) {
                entries.append(YAMLText.Entry("destination", .string("queryString")))
            }
            if repeatsQuery { entries.append(YAMLText.Entry("arrayEncoding", .string("noBrackets"))) }
            return .map(entries)
        case .json(let value) where SampleBody.fitsInline(value):
            entries.append(YAMLText.Entry("json", Self.yaml(value)))
        case .json(let value):
            // Deeper than the loader reads as YAML (or a key YAML cannot hold): the bytes as text.
            entries.append(
                YAMLText.Entry("data", .string(Self.literal(String(decoding: value.serializedBytes(), as: UTF8.self)))))
        case .form(let fields):
            let groups = Self.grouped(fields)
            entries.append(YAMLText.Entry("parameters", Self.parameters(groups)))
            entries.append(YAMLText.Entry("encoding", .string("url")))
            entries.append(YAMLText.Entry("destination", .string("httpBody")))
            if groups.contains(where: { $0.values.count > 1 }) {
                entries.append(YAMLText.Entry("arrayEncoding", .string("noBrackets")))
            }
        case .text(let text):
            entries.append(YAMLText.Entry("data", .string(Self.literal(text))))
        case .multipart(let parts):
            var taken = Set<String>()
            var written: [YAMLText] = []
            for part in parts {
                try Self.checkOneLine(part.name, "the multipart part name")
                var members = [YAMLText.Entry("name", .string(Self.literal(part.name)))]
                switch part.content {
                case .text(let value):
                    members.append(YAMLText.Entry("value", .string(Self.literal(value))))
                case .file(let fileName, let mimeType):
                    try Self.checkOneLine(fileName ?? "", "the file name")
                    try Self.checkOneLine(mimeType ?? "", "the MIME type")
                    let valueName = Self.uniqueValueName(part.name, taken: &taken)
                    values.append(.map([YAMLText.Entry(valueName, .string("file"))]))
                    switch fileExamples[part.name] {
                    case .inFolder(let path)?:
                        example.append(YAMLText.Entry(valueName, .string(Self.literal(path))))
                    case .copy(let bytes, let fileExtension)? where fileStem != nil:
                        let path = (fileStem ?? "") + "-" + valueName + fileExtension
                        example.append(YAMLText.Entry(valueName, .string(Self.literal(path))))
                        exampleFiles.append((path, bytes))
                    case .copy?, nil: break
                    }
                    members.append(YAMLText.Entry("file", .string("{\(valueName)}")))
                    if let fileName { members.append(YAMLText.Entry("fileName", .string(Self.literal(fileName)))) }
                    if let mimeType { members.append(YAMLText.Entry("mimeType", .string(Self.literal(mimeType)))) }
                }
                written.append(.map(members))
            }
            entries.append(YAMLText.Entry("multipart", .list(written)))
        }
        if !query.isEmpty {
            // Next to a body, `query` is a map of strings: one value per name.
            if let repeated = queryGroups.first(where: { $0.values.count > 1 }) {
                throw TargetFileEditError(
                    .usage,
                    "the query repeats '\(repeated.name)' next to a body; a case with a body sends one value per query parameter"
                )
            }
            entries.append(
                YAMLText.Entry(
                    "query", .map(queryGroups.map { YAMLText.Entry($0.name, .string(Self.literal($0.values[0]))) })))
        }
        return .map(entries)
    }

    /// The response as a sample (and the file its body goes to), or why it is left out.
    private static func sample(
        _ sample: Sample, redacting secrets: SecretMatcher, fileStem: String?
    ) -> (YAMLText?, String?, (path: String, bytes: [UInt8])?) {
        let placeholder = Array(SampleBody.placeholder.utf8)
        func redacted(_ text: String) -> String { secrets.replacingMatches(in: text, with: placeholder) }
        var members: [YAMLText.Entry] = []
        if sample.status != 200 { members.append(YAMLText.Entry("status", .int(sample.status))) }
        if let contentType = sample.contentType {
            members.append(
                YAMLText.Entry("headers", .map([YAMLText.Entry("Content-Type", .string(literal(contentType)))])))
        }
        let length = max(sample.bodyLength ?? 0, sample.body.count)
        guard length > 0 else {
            return (.map(members.isEmpty ? [YAMLText.Entry("status", .int(sample.status))] : members), nil, nil)
        }
        let json = SampleBody.isJSON(sample.contentType) ? try? JSONValue(parsing: sample.body) : nil
        let hidden = json.map { SampleBody.hidingCredentials($0) }
        let isWhole = sample.bodyLength.map { $0 <= sample.body.count } ?? true
        if let hidden, isWhole, length > SampleBody.maximumInlineBytes || !SampleBody.fitsInline(hidden) {
            guard let fileStem else {
                return (
                    nil,
                    "the response's JSON is too large or nests too deep for the target file and there is no folder to put its sample file in; no sample was saved",
                    nil
                )
            }
            let path = fileStem + ".json"
            members.append(YAMLText.Entry("file", .string(literal(path))))
            return (
                .map(members), nil,
                (path, Array(redacted(String(decoding: hidden.serializedBytes(), as: UTF8.self)).utf8))
            )
        }
        let text = String(validating: sample.body, as: UTF8.self)
        if hidden == nil, isWhole, let fileStem,
            SampleBody.belongsInFile(byteCount: length, isText: text != nil, isJSON: false)
        {
            // A page of HTML, an image: beside the target file, as `--record` writes it.
            let path = fileStem + "." + SampleBody.fileExtension(sample.contentType, isText: text != nil, isJSON: false)
            members.append(YAMLText.Entry("file", .string(literal(path))))
            return (.map(members), nil, (path, text.map { Array(redacted($0).utf8) } ?? sample.body))
        }
        guard length <= SampleBody.maximumInlineBytes else {
            return (
                nil,
                "the response (\(length) bytes) is larger than \(SampleBody.maximumInlineBytes) bytes; no sample was saved",
                nil
            )
        }
        if let hidden {
            members.append(YAMLText.Entry("json", yaml(hidden, transformingStrings: redacted)))
        } else if let text {
            members.append(YAMLText.Entry("text", .string(literal(redacted(text)))))
        } else {
            return (nil, "the response is not UTF-8 text; no sample was saved", nil)
        }
        return (.map(members), nil, nil)
    }

    /// `application/json` and every `…+json` type.
    package static func isJSON(_ contentType: String?) -> Bool { SampleBody.isJSON(contentType) }

    /// A JSON value as YAML, its strings literal (and passed through `transform`).
    package static func yaml(_ value: JSONValue, transformingStrings transform: (String) -> String = { $0 }) -> YAMLText
    {
        switch value {
        case .null: .null
        case .bool(let bool): .bool(bool)
        case .int(let int): .int(int)
        case .number(let number): .number(number.description)
        case .string(let string): .string(literal(transform(string)))
        case .array(let items): .list(items.map { yaml($0, transformingStrings: transform) })
        case .object(let members):
            .map(members.map { YAMLText.Entry(transform($0.0), yaml($0.1, transformingStrings: transform)) })
        }
    }

    /// Parameters by name: a value, or a list for a name given more than once.
    private static func parameters(_ groups: [(name: String, values: [String])]) -> YAMLText {
        .map(
            groups.map { group in
                YAMLText.Entry(
                    group.name,
                    group.values.count == 1
                        ? .string(literal(group.values[0])) : .list(group.values.map { .string(literal($0)) }))
            })
    }

    /// The pairs' values by name, names in the order they first appear.
    private static func grouped(_ pairs: [Pair]) -> [(name: String, values: [String])] {
        var groups: [(name: String, values: [String])] = []
        var index: [String: Int] = [:]
        for pair in pairs {
            if let at = index[pair.name] {
                groups[at].values.append(pair.value)
            } else {
                index[pair.name] = groups.count
                groups.append((pair.name, [pair.value]))
            }
        }
        return groups
    }

    /// `text` as a template that renders to exactly `text`: `{` and `}` doubled, `${` as `$${`.
    package static func literal(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "}") }) else { return text }
        let scalars = Array(text.unicodeScalars)
        var result = ""
        var index = 0
        while index < scalars.count {
            switch scalars[index] {
            case "$" where index + 1 < scalars.count && scalars[index + 1] == "{":
                result += "$${"
                index += 1
            case "{": result += "{{"
            case "}": result += "}}"
            default: result.unicodeScalars.append(scalars[index])
            }
            index += 1
        }
        return result
    }

    /// Refuses CR, LF and NUL where they would start a line of their own in the request (the
    /// loader would refuse the file, exit 65, with the case already made).
    private static func checkOneLine(_ text: String, _ what: String) throws(TargetFileEditError) {
        guard !text.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) else {
            throw TargetFileEditError(
                .usage,
                "\(DisplayText.escaped(what)) '\(DisplayText.escaped(text))' holds CR, LF or NUL; it cannot be saved in a case"
            )
        }
    }

    /// `MOYA_<API>_<HEADER>`, letters upper-cased and anything else `_`; `_2`, `_3`, … when taken.
    private static func uniqueVariable(apiName: String, header: String, taken: inout Set<String>) -> String {
        let base = secretVariable(apiName: apiName, part: header)
        var name = base
        var number = 2
        while !taken.insert(name).inserted {
            name = base + "_\(number)"
            number += 1
        }
        return name
    }

    /// `MOYA_<API>_<PART>`, the variable a saved secret is read from (letters upper-cased, other
    /// characters `_`): a header's value, a saved auth scheme's password or token.
    package static func secretVariable(apiName: String, part: String) -> String {
        "MOYA_" + variablePart(apiName) + "_" + variablePart(part)
    }

    private static func variablePart(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { scalar in
                    switch scalar {
                    case "a"..."z": Unicode.Scalar(scalar.value - 32) ?? "_"
                    case "A"..."Z", "0"..."9": scalar
                    default: "_"
                    }
                }))
    }

    /// A value name for a multipart file part: its name as an identifier, unique in the case
    /// (the importers name their file values so too).
    package static func uniqueValueName(_ name: String, taken: inout Set<String>) -> String {
        var base = String(
            String.UnicodeScalarView(
                name.unicodeScalars.map { scalar in
                    switch scalar {
                    case "a"..."z", "A"..."Z", "0"..."9", "_": scalar
                    default: "_"
                    }
                }))
        if base.isEmpty || base.first.map({ $0.isNumber }) == true { base = "file_" + base }
        var candidate = base
        var number = 2
        while !taken.insert(candidate).inserted {
            candidate = base + "_\(number)"
            number += 1
        }
        return candidate
    }
}
