import CLITestSupport
import Foundation
import XCTest

@testable import TestServers

/// Issue 39: real input, as users bring it. Every file under `../shared/corpus` (from the
/// repository's root) is found by walking its folders, never by a list here: a file added there
/// is tested without a change to this file. Each OpenAPI description, Postman collection, HAR
/// capture and curl command imports (exit 0: the corpus is valid input, so neither a refusal, 65,
/// nor an internal error, 70), every target file it makes `validate`s, and `check` passes offline
/// with no variable set. Each failing file is reported on its own, with what it printed.
///
/// The files are worked on two at a time (the machine has two cores), by the one built binary.
final class CorpusTests: XCTestCase {
    /// `../shared/corpus` from the repository's root (this file is `Tests/MoyaCLITests/…`).
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/corpus")

    /// What a corpus file is, by what `moya-cli import` reads it as.
    enum Kind: String, CaseIterable, Sendable {
        case openapi, postman, har, curl
    }

    /// One input of the corpus: its kind and where it is.
    struct Input: Sendable {
        var kind: Kind
        var url: URL
        /// Its path under the corpus, as failures name it.
        var name: String
    }

    // MARK: The kinds

    func testOpenAPIDescriptionsImportValidateAndCheck() throws {
        try assertEveryInputImports(.openapi)
    }

    func testPostmanCollectionsImportValidateAndCheck() throws {
        try assertEveryInputImports(.postman)
    }

    func testHARCapturesImportValidateAndCheck() throws {
        try assertEveryInputImports(.har)
    }

    func testCurlCommandsImportValidateAndCheck() throws {
        try assertEveryInputImports(.curl)
    }

    /// Each curl command of the corpus, run by the real curl and imported then called, sends the
    /// same request to the loopback server, compared as ``ImportCurlTests`` compares (its
    /// ``ImportCurlTests/Wire``). The secrets an import moves to variables are set to a stand-in:
    /// the header fields carrying them must be there, their values are not compared.
    func testCurlCommandsSendWhatCurlSends() throws {
        try XCTSkipIf(!FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"), "curl is not installed")
        try XCTSkipIf(!FileManager.default.isExecutableFile(atPath: "/bin/bash"), "bash is not installed")
        let commands = try Self.inputs().filter { $0.kind == .curl }
        XCTAssertFalse(commands.isEmpty, "no curl command in the corpus")
        let server = try HTTPTestServer()
        defer { server.stop() }
        var failing = 0
        for input in commands {
            if let failure = try Self.comparison(of: input, server: server) {
                failing += 1
                XCTFail("\(input.name): \(failure)")
            }
        }
        print("CorpusTests: curl equivalence: \(commands.count) commands, \(failing) failing")
    }

    /// What differs between the request `input` sends with curl and as its imported case, or `nil`.
    static func comparison(of input: Input, server: HTTPTestServer) throws -> String? {
        let folder = try TemporaryFolder()
        try copyCurlData(to: folder.url)
        let command = try String(contentsOf: input.url, encoding: .utf8)
            .replacingOccurrences(of: "127.0.0.1:19460", with: "127.0.0.1:\(server.port)")
        try folder.write("command.sh", command)
        let imported = try CLIRunner.run(
            ["import", "curl", "command.sh", "--api", "corpus", "--case", "c"], currentDirectory: folder.url)
        guard imported.status == 0 else { return "import exited \(imported.status)\n\(imported.stderr)" }
        let file = try String(contentsOf: folder.url.appendingPathComponent("targets/corpus.yaml"), encoding: .utf8)
        let variables = variableNames(in: file)
        let standIn = "moya-corpus-stand-in"
        let before = server.receivedRequests.count
        // A browser writes $'\u20ac' for €: bash reads it so in a UTF-8 locale.
        let curl = try CLIRunner.runShell("bash command.sh", in: folder.url, environment: ["LC_ALL": "C.UTF-8"])
        guard curl.status == 0 else { return "curl exited \(curl.status)\n\(curl.stderr)" }
        // Positional: a value may be named like an option of call's own (`--key`).
        let values = try requiredValues(of: "corpus", in: folder.url).map { name in
            sentValue(name, command: command, request: viaCurlRequest(server, after: before)) ?? ""
        }
        let called = try CLIRunner.run(
            ["call", "corpus", "c"] + values,
            environment: Dictionary(uniqueKeysWithValues: variables.map { ($0, standIn) }),
            currentDirectory: folder.url)
        // The server answers 404 where the command's path is none of its routes: still compared.
        guard [0, 3, 4, 5].contains(called.status) else { return "call exited \(called.status)\n\(called.stderr)" }
        let received = server.receivedRequests.dropFirst(before)
        guard received.count == 2, let viaCurl = received.first, let viaCall = received.last else {
            return "expected a request from curl and one from the case, got \(received.count)"
        }
        let comparesEncoding = command.contains("--compressed")
        var (sentByCall, sentByCurl) = (
            ImportCurlTests.Wire(viaCall, comparingAcceptEncoding: comparesEncoding),
            ImportCurlTests.Wire(viaCurl, comparingAcceptEncoding: comparesEncoding)
        )
        if !variables.isEmpty {
            for (name, value) in sentByCall.headers
            where value.contains(standIn) || name == "authorization" || name == "cookie" {
                guard sentByCurl.headers[name] != nil else { return "the case sends \(name), curl does not" }
                (sentByCall.headers[name], sentByCurl.headers[name]) = (nil, nil)
            }
        }
        guard sentByCall == sentByCurl else {
            return "the case sends\n\(sentByCall)\ncurl sends\n\(sentByCurl)\nthe target file:\n\(file)"
        }
        return nil
    }

    /// The request curl sent: the first the server received after `count`.
    static func viaCurlRequest(_ server: HTTPTestServer, after count: Int) -> ReceivedRequest? {
        server.receivedRequests.dropFirst(count).first
    }

    /// The names of the values of case `c` of `api` that have no default.
    static func requiredValues(of api: String, in folder: URL) throws -> [String] {
        let listed = try CLIRunner.run(["list", api, "--format", "json"], currentDirectory: folder)
        let document = try JSONSerialization.jsonObject(with: listed.stdoutData) as? [String: Any]
        let cases = document?["cases"] as? [[String: Any]] ?? []
        let values = cases.first { $0["name"] as? String == "c" }?["values"] as? [[String: Any]] ?? []
        return values.filter { $0["required"] as? Bool == true }.compactMap { $0["name"] as? String }
    }

    /// What curl sent for the field a value stands for (a credential the import left to the
    /// command line, a file it names): a file part's or upload's path as the command writes it,
    /// a multipart part's text, a form field, a query parameter.
    static func sentValue(_ name: String, command: String, request: ReceivedRequest?) -> String? {
        let words = command.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\\" }).map {
            $0.trimmingCharacters(in: CharacterSet(charactersIn: "'\""))
        }
        for (index, word) in words.enumerated() {
            if word.hasPrefix(name + "=@") { return String(word.dropFirst(name.count + 2)) }
            if ["-T", "--upload-file"].contains(word), index + 1 < words.count { return words[index + 1] }
        }
        guard let request else { return nil }
        if let parts = MultipartParser.parts(of: request.body, contentType: request.value(of: "Content-Type")) {
            if let part = parts.first(where: { $0.name == name }) {
                return String(decoding: part.content, as: UTF8.self)
            }
        }
        if request.value(of: "Content-Type")?.hasPrefix("application/x-www-form-urlencoded") == true {
            for field in String(decoding: request.body, as: UTF8.self).split(separator: "&") {
                let pair = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                // As sent: the imported body holds the field's text as the command wrote it.
                if pair.first == Substring(name) { return pair.count > 1 ? String(pair[1]) : "" }
            }
        }
        if let item = request.queryItems.first(where: { $0.name == name }) { return item.value }
        // A repeated credential parameter became `key`, `key_2`, ...: the Nth of its items.
        guard let separator = name.lastIndex(of: "_"), let number = Int(name[name.index(after: separator)...]),
            number >= 2
        else { return nil }
        let base = String(name[..<separator])
        let items = request.queryItems.filter { $0.name == base }
        return number <= items.count ? items[number - 1].value : nil
    }

    /// The environment variables a target file reads (`${NAME}`, `${secret:NAME}`, `${NAME:-x}`).
    static func variableNames(in text: String) -> Set<String> {
        var names = Set<String>()
        var rest = text[...]
        while let start = rest.range(of: "${") {
            rest = rest[start.upperBound...]
            if rest.hasPrefix("secret:") { rest = rest.dropFirst("secret:".count) }
            let name = rest.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
            if !name.isEmpty { names.insert(String(name)) }
        }
        return names
    }

    /// The walk finds every kind, and a multi-file spec by its entry point alone.
    func testTheWalkFindsEveryKindAndEntryPointsOnly() throws {
        let inputs = try Self.inputs()
        for kind in Kind.allCases {
            XCTAssertFalse(inputs.filter { $0.kind == kind }.isEmpty, "no \(kind) input found in \(Self.corpus.path)")
        }
        // A spec split over files is imported from its root, never from a fragment of it.
        for input in inputs where input.kind == .openapi {
            XCTAssertTrue(Self.isSpecRoot(input.url), input.name)
        }
    }

    // MARK: Walking the corpus

    /// Every input under the corpus, in path order; skips the test when the corpus is absent.
    static func inputs() throws -> [Input] {
        try XCTSkipUnless(
            FileManager.default.fileExists(atPath: corpus.path),
            "the corpus is not at \(corpus.path) (../shared/corpus from the repository's root)")
        return walked
    }

    /// The walk, once for all the tests (DigitalOcean's spec alone is some 2,900 files).
    private static let walked: [Input] = {
        guard let walk = FileManager.default.enumerator(at: corpus, includingPropertiesForKeys: [.isRegularFileKey])
        else { return [] }
        var inputs: [Input] = []
        for case let url as URL in walk {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true,
                let kind = kind(of: url)
            else { continue }
            let name = String(url.standardizedFileURL.path.dropFirst(corpus.standardizedFileURL.path.count + 1))
            inputs.append(Input(kind: kind, url: url, name: name))
        }
        return inputs.sorted { $0.name < $1.name }
    }()

    /// A file's kind: by its folder for captures and commands (`postman/`, `har/`,
    /// `curl/fixtures/`), by its content for OpenAPI (a YAML or JSON document with a top-level
    /// `openapi` or `swagger`: the root of a spec split over files; its fragments have none).
    /// Anything else (SOURCES.md, the files curl commands read) is no input.
    static func kind(of url: URL) -> Kind? {
        let folders = url.deletingLastPathComponent().pathComponents
        let suffix = url.pathExtension.lowercased()
        if folders.suffix(2) == ["curl", "fixtures"] { return suffix == "sh" ? .curl : nil }
        if folders.contains("postman") { return suffix == "json" ? .postman : nil }
        if folders.contains("har") { return suffix == "har" || suffix == "json" ? .har : nil }
        guard ["yaml", "yml", "json"].contains(suffix) else { return nil }
        return isSpecRoot(url) ? .openapi : nil
    }

    /// Whether the document has a top-level `openapi` or `swagger` key.
    static func isSpecRoot(_ url: URL) -> Bool {
        guard let data = try? Data(contentsOf: url) else { return false }
        if url.pathExtension.lowercased() == "json" {
            guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return false }
            return object["openapi"] != nil || object["swagger"] != nil
        }
        return ["openapi:", "swagger:"].contains { key in
            data.starts(with: Data(key.utf8)) || data.range(of: Data(("\n" + key).utf8)) != nil
        }
    }

    // MARK: Import, validate, check

    /// What went wrong with one input, or `nil`.
    struct Outcome: Sendable {
        var input: Input
        var failure: String?
        var seconds: Double
    }

    /// Imports every input of `kind`, two at a time, and reports each that fails.
    func assertEveryInputImports(_ kind: Kind, file: StaticString = #filePath, line: UInt = #line) throws {
        let inputs = try Self.inputs().filter { $0.kind == kind }
        XCTAssertFalse(inputs.isEmpty, "no \(kind) input in the corpus", file: file, line: line)
        let outcomes = Self.concurrently(inputs) { Self.outcome(of: $0) }
        for outcome in outcomes {
            if let failure = outcome.failure { XCTFail("\(outcome.input.name): \(failure)", file: file, line: line) }
        }
        let total = outcomes.map(\.seconds).reduce(0, +)
        let slowest = outcomes.max { $0.seconds < $1.seconds }
        print(
            "CorpusTests: \(kind): \(outcomes.count) inputs, \(outcomes.filter { $0.failure != nil }.count) failing, "
                + String(format: "%.1f s of work", total)
                + (slowest.map { String(format: ", slowest %@ %.1f s", $0.input.name, $0.seconds) } ?? ""))
    }

    /// `work` on each of `items`, on as many threads as there are cores (at least two), in order.
    static func concurrently<Item: Sendable, Result: Sendable>(
        _ items: [Item], _ work: @escaping @Sendable (Item) -> Result
    ) -> [Result] {
        let lock = NSLock()
        nonisolated(unsafe) var results = [Result?](repeating: nil, count: items.count)
        nonisolated(unsafe) var next = 0
        let workers = min(items.count, max(2, ProcessInfo.processInfo.activeProcessorCount))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                lock.lock()
                let index = next
                next += 1
                lock.unlock()
                guard index < items.count else { return }
                let result = work(items[index])
                lock.lock()
                results[index] = result
                lock.unlock()
            }
        }
        return results.compactMap { $0 }
    }

    /// Imports `input` in a folder of its own, validates what it wrote and checks it offline.
    static func outcome(of input: Input) -> Outcome {
        let start = Date()
        func done(_ failure: String?) -> Outcome {
            Outcome(input: input, failure: failure, seconds: Date().timeIntervalSince(start))
        }
        do {
            let folder = try TemporaryFolder()
            var arguments = ["import", input.kind.rawValue, input.url.path]
            if input.kind == .curl {
                // A command is run from the folder of the files it reads (data/), as its SOURCES.md says.
                try copyCurlData(to: folder.url)
                try FileManager.default.copyItem(at: input.url, to: folder.url.appendingPathComponent("command.sh"))
                arguments = ["import", "curl", "command.sh", "--api", "corpus", "--case", "c"]
            }
            let imported = try CLIRunner.run(arguments, currentDirectory: folder.url, timeout: 900)
            guard imported.status == 0 else {
                return done("import exited \(imported.status)\n\(lastLines(of: imported.stderr))")
            }
            let targets = folder.url.appendingPathComponent("targets")
            let written =
                (try? FileManager.default.contentsOfDirectory(atPath: targets.path))?
                .filter { $0.hasSuffix(".yaml") }.sorted() ?? []
            guard !written.isEmpty else { return done("import wrote no target file\n\(imported.stderr)") }
            let validated = try CLIRunner.run(
                ["validate"] + written.map { "targets/" + $0 }, currentDirectory: folder.url, timeout: 900)
            guard validated.status == 0 else {
                return done("validate exited \(validated.status)\n\(lastLines(of: validated.stderr))")
            }
            let checked = try CLIRunner.run(["check"], currentDirectory: folder.url, timeout: 900)
            guard checked.status == 0 else {
                return done(
                    "check (offline, no variable set) exited \(checked.status)\n"
                        + lastLines(of: checked.stderr + checked.stdout))
            }
            return done(nil)
        } catch {
            return done("\(error)")
        }
    }

    /// What a failure needs of a long output, without 10,000 lines of it: its errors and failed
    /// checks (the first 20), else its end.
    static func lastLines(of text: String, count: Int = 20) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let failures = lines.filter { $0.contains(": error: ") || $0.contains(" fail ") || $0.hasPrefix("moya-cli: ") }
        let chosen = failures.isEmpty ? Array(lines.suffix(count)) : Array(failures.prefix(count))
        let left = (failures.isEmpty ? lines.count : failures.count) - chosen.count
        return chosen.joined(separator: "\n") + (left > 0 ? "\n… and \(left) more lines" : "")
    }

    /// The files curl commands read (`imports-1/curl/data/`), copied into `folder`: a command may
    /// write beside them (`-c cookies.txt`), never into the corpus.
    static func copyCurlData(to folder: URL) throws {
        let data = corpus.appendingPathComponent("imports-1/curl/data")
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: data.path) else { return }
        for name in names {
            try FileManager.default.copyItem(
                at: data.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
    }
}
