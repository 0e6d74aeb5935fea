import OrderedJSON
import TargetModel

/// Reads a Postman Collection (v2.0 or v2.1 JSON) into one API's target file: its item tree
/// flattened into cases, `{{variables}}` into environments and values, auth into schemes,
/// saved responses into samples; see moya-cli-import(1).
package enum PostmanImporter {
    package static let maximumInputSize = 64 << 20
    package static let maximumItems = 100_000
    /// The deepest folder nesting read.
    package static let maximumDepth = 64

    /// A collection read: the file's text, its case names, and what to say on stderr.
    package struct Result: Sendable {
        package var apiName: String
        package var baseURL: String
        package var text: String
        package var caseNames: [String]
        package var notes: [String]
        /// Example bodies that go to files beside the target file (too deep or too large).
        package var sampleFiles: [(path: String, bytes: [UInt8])] = []
        /// The variables the file reads as secrets, in order: what a file outside the trusted
        /// folders must be allowed to read (the "next:" line names them).
        package var secretVariables: [String] = []
    }

    /// One request of the flattened tree, with the folders it is in.
    struct Flattened {
        var item: JSONValue
        var path: String
        var folders: [String]
        var auth: JSONValue?
    }

    /// - Parameter only: `--only`: keep the requests one of these names: a folder (at any level),
    ///   a request, a `Folder/Request` path (or its start), or a case name; empty: all.
    package static func read(
        _ bytes: [UInt8], environment: [UInt8]?, apiName: String?, header: [String], only: [String] = []
    ) throws(RequestImportError) -> Result {
        let root = try json(bytes, what: "the collection")
        guard root["item"]?.arrayValue != nil, root["info"]?.objectValue != nil else {
            throw RequestImportError("not a Postman collection: no info object and item list (at $.item)")
        }
        let schema = root["info"]?["schema"]?.stringValue ?? ""
        guard schema.isEmpty || schema.contains("v2.0") || schema.contains("v2.1") else {
            throw RequestImportError(
                "the collection's schema '\(schema.prefix(200))' is not v2.0 or v2.1; export it as v2.1 (at $.info.schema)"
            )
        }
        var variables = PostmanVariables()
        variables.collection = try PostmanVariables.read(root["variable"], at: "$.variable")
        if let environment {
            let file = try json(environment, what: "the environment file")
            variables.environment = try PostmanVariables.read(file["values"], at: "(environment) $.values")
            variables.environmentName = file["name"]?.stringValue
        }
        variables.findCycles()
        let title = root["info"]?["name"]?.stringValue ?? "postman"
        let name = apiName ?? HARImporter.defaultName(forHost: title)
        var notes: [String] = []
        for cyclic in variables.cyclic.sorted() {
            notes.append("the variable '\(cyclic)' refers to itself through others: it is never expanded")
        }
        var requests: [Flattened] = []
        var scriptCount = 0
        try flatten(
            root["item"], at: "$.item", folders: [],
            auth: root["auth"].flatMap { $0.isNull ? Optional<JSONValue>.none : $0 }, depth: 0,
            into: &requests,
            scripts: &scriptCount)
        scriptCount += root["event"]?.arrayValue?.count ?? 0
        if scriptCount > 0 {
            notes.append(
                "\(scriptCount) pre-request/test script\(scriptCount == 1 ? "" : "s") skipped: a case runs no scripts")
        }
        guard !requests.isEmpty else { throw RequestImportError("the collection has no requests (at $.item)") }
        // Before any case or sample is made: a variable an auth scheme reads is a secret.
        var authRead = root["auth"].map(PostmanAuth.credentialVariables) ?? []
        for request in requests {
            for auth in [request.auth, request.item["request"]?["auth"]].compactMap({ $0 }) where auth != .null {
                authRead.formUnion(PostmanAuth.credentialVariables(auth))
            }
        }
        variables.markSecret(authRead)
        if !only.isEmpty {
            requests = requests.filter { request in only.contains { Self.names(request, $0) } }
            guard !requests.isEmpty else {
                throw RequestImportError("--only \(only.joined(separator: ", ")) names no folder or request")
            }
        }
        var builder = PostmanCaseBuilder(apiName: name, variables: variables)
        if let auth = root["auth"], auth != .null {
            builder.defaultAuth = try builder.scheme(for: auth, at: "$.auth")
        }
        let parsed = try requests.map { request throws(RequestImportError) in try builder.parse(request) }
        var counts: [String: Int] = [:]
        for request in parsed { counts[request.origin, default: 0] += 1 }
        let origin = parsed.map(\.origin).max { counts[$0, default: 0] < counts[$1, default: 0] } ?? ""
        var cases: [YAMLText.Entry] = []
        var names: [String] = []
        // A set: a collection of 100,000 requests must not compare each name with every other.
        var taken = Set<String>()
        for request in parsed {
            let caseName = uniqueName(request.name, taken: taken)
            taken.insert(caseName)
            names.append(caseName)
            let made = try builder.members(request, apiOrigin: origin, caseName: caseName)
            cases.append(YAMLText.Entry(caseName, .map(made.members)))
            notes += made.notes.map { "\(caseName): \($0)" }
        }
        notes += builder.notes
        for name in PostmanTemplate.references(in: origin) where variables.variable(name) == nil {
            notes.append(
                "the base URL's variable '\(name)' is defined neither in the collection nor in an environment file: set \(PostmanVariables.identifier(name)) to call"
            )
        }
        var rootEntries = [
            YAMLText.Entry("api", .string(name)),
            YAMLText.Entry("baseURL", .string(variables.baseURL(origin)))
        ]
        rootEntries += environments(variables, notes: &notes)
        if !builder.schemes.isEmpty {
            var auth: [YAMLText.Entry] = []
            if let defaultAuth = builder.defaultAuth, defaultAuth != "none" {
                auth.append(YAMLText.Entry("default", .string(defaultAuth)))
            }
            auth.append(
                YAMLText.Entry("schemes", .map(builder.schemes.map { YAMLText.Entry($0.name, .map($0.members)) })))
            rootEntries.append(YAMLText.Entry("auth", .map(auth)))
        }
        rootEntries.append(YAMLText.Entry("cases", .map(cases)))
        for secret in builder.secrets {
            notes.append("\(secret.why) is read from ${secret:\(secret.variable)}; set \(secret.variable) to call it")
        }
        var said = Set<String>()
        notes = notes.filter { said.insert($0).inserted }
        let text = YAMLText.render(rootEntries, header: header)
        try TargetFileBudget.check(text, cases: cases.count, advice: "export a smaller collection")
        return Result(
            apiName: name, baseURL: origin, text: text, caseNames: names, notes: notes,
            sampleFiles: builder.sampleFiles,
            secretVariables: builder.secrets.map(\.variable))
    }

    static func json(_ bytes: [UInt8], what: String) throws(RequestImportError) -> JSONValue {
        guard bytes.count <= maximumInputSize else {
            throw RequestImportError("\(what) is \(bytes.count) bytes; at most \(maximumInputSize >> 20) MiB is read")
        }
        do throws(JSONParseError) {
            return try JSONValue(parsing: bytes)
        } catch {
            throw RequestImportError(
                "\(what) is not JSON: \(error.description)", at: TextPlace(line: error.line, column: error.column))
        }
    }

    /// Whether `name` (`--only`) names `request`: one of its folders, its own name, the start of its
    /// `Folder/Request` path, or its case name.
    static func names(_ request: Flattened, _ name: String) -> Bool {
        let own = request.item["name"]?.stringValue ?? ""
        let path = (request.folders + [own]).joined(separator: "/")
        return request.folders.contains(name) || own == name || path == name || path.hasPrefix(name + "/")
            || caseName(folders: request.folders, name: own) == name
    }

    /// The requests under `list`, depth first, each with its folders and inherited auth.
    static func flatten(
        _ list: JSONValue?, at path: String, folders: [String], auth: JSONValue?, depth: Int,
        into requests: inout [Flattened], scripts: inout Int
    ) throws(RequestImportError) {
        guard depth < maximumDepth else {
            throw RequestImportError("folders nest deeper than \(maximumDepth) (at \(path))")
        }
        guard let items = list?.arrayValue else { throw RequestImportError("not a list of items (at \(path))") }
        for (offset, item) in items.enumerated() {
            let at = "\(path)[\(offset)]"
            guard item.objectValue != nil else { throw RequestImportError("not an item object (at \(at))") }
            guard requests.count < maximumItems else {
                throw RequestImportError("the collection has more than \(maximumItems) requests (at \(at))")
            }
            scripts += item["event"]?.arrayValue?.count ?? 0
            let ownAuth = item["auth"].flatMap { $0.isNull ? Optional<JSONValue>.none : $0 }
            if item["item"] != nil {
                guard let name = item["name"]?.stringValue else {
                    throw RequestImportError("not a string (at \(at).name)")
                }
                try flatten(
                    item["item"], at: at + ".item", folders: folders + [name], auth: ownAuth ?? auth, depth: depth + 1,
                    into: &requests, scripts: &scripts)
            } else {
                guard item["request"] != nil else { throw RequestImportError("an item without a request (at \(at))") }
                requests.append(Flattened(item: item, path: at, folders: folders, auth: auth))
            }
        }
    }

    /// `usersGetUser` from `Users / Get user`; `2`, `3`, … when taken.
    static func caseName(folders: [String], name: String) -> String {
        var words: [String] = []
        for text in folders + [name] {
            var word = ""
            for character in text {
                if character.isASCII && (character.isLetter || character.isNumber) {
                    word.append(character)
                } else if !word.isEmpty {
                    words.append(word)
                    word = ""
                }
            }
            if !word.isEmpty { words.append(word) }
        }
        if words.isEmpty { words = ["request"] }
        let first = words[0]
        var result =
            first.allSatisfy(\.isUppercase) ? first.lowercased() : first.prefix(1).lowercased() + first.dropFirst()
        for word in words.dropFirst() { result += word.prefix(1).uppercased() + word.dropFirst() }
        if result.first?.isNumber == true { result = "request" + result }
        return String(result.prefix(60))
    }

    static func uniqueName(_ name: String, taken: Set<String>) -> String {
        var candidate = name
        var number = 2
        while taken.contains(candidate) {
            candidate = name + "\(number)"
            number += 1
        }
        return candidate
    }

    /// `collection` (the collection's variables) and the environment file's, over them; secrets
    /// are never written: they are read from the process environment.
    static func environments(_ variables: PostmanVariables, notes: inout [String]) -> [YAMLText.Entry] {
        func entries(_ list: [PostmanVariables.Variable]) -> [YAMLText.Entry] {
            var written: [YAMLText.Entry] = []
            var seen = Set<String>()
            // Two names that map to one (`a-b`, `a_b`): the later wins, as a later definition does.
            for variable in list.reversed() where seen.insert(PostmanVariables.identifier(variable.name)).inserted {
                let name = PostmanVariables.identifier(variable.name)
                if name != variable.name { notes.append("the variable '\(variable.name)' is ${\(name)}") }
                if variable.isSecret {
                    notes.append("the variable '\(variable.name)' is a credential: not written; set \(name) to call")
                    continue
                }
                if variables.cyclic.contains(variable.name) { continue }
                written.insert(YAMLText.Entry(name, .string(variables.environmentValue(variable))), at: 0)
            }
            return written
        }
        var environments: [YAMLText.Entry] = []
        var defaultName: String?
        if !variables.collection.isEmpty {
            environments.append(
                YAMLText.Entry("collection", .map([YAMLText.Entry("variables", .map(entries(variables.collection)))])))
            defaultName = "collection"
        }
        if variables.environmentName != nil || !variables.environment.isEmpty {
            var name = HARImporter.defaultName(forHost: variables.environmentName ?? "environment")
            if name == "collection" { name = "collection-2" }
            environments.append(
                YAMLText.Entry(
                    name,
                    .map([
                        YAMLText.Entry("variables", .map(entries(variables.collection + variables.environment)))
                    ])))
            defaultName = defaultName ?? name
        }
        guard let defaultName else { return [] }
        return [
            YAMLText.Entry("environments", .map(environments)),
            YAMLText.Entry("defaultEnvironment", .string(defaultName))
        ]
    }
}
