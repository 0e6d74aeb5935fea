import CLITestSupport
import Foundation
import TargetModel
import TargetSpec
import XCTest

/// Issue 43, the round trip: for every shipped target file and the fixtures' imports,
/// `generate swift --module Moya` then `import swift` gives the same cases — names, methods,
/// paths, tasks, values with their types and defaults, base URLs, auth and default samples —
/// compared case by case on the two files as the loader reads them.
final class ImportSwiftRoundTripTests: XCTestCase {
    static let repository = CLIRunner.repositoryRoot

    /// One case as the round trip keeps it.
    static func summary(_ spec: CaseSpec, api: APISpec) -> [String] {
        // A file sent as the body (`dataFile`) is `.uploadFile` in Swift, as `upload` is: the same
        // request, the file's bytes as the body; the trip brings it back as `upload`.
        var task = spec.task.moyaName
        if case .dataFile = spec.task { task = "uploadFile" }
        var lines = [
            "description \(spec.description ?? "")",
            "method \(spec.method)", "path \(spec.path.source)", "task \(task)",
            "baseURL \(spec.baseURL?.source ?? effectiveBaseURL(api))"
        ]
        for value in spec.values {
            var line = "value \(value.name): \(value.type.name)"
            if case .enumeration(let cases) = value.type.elementType ?? value.type { line += " \(cases)" }
            if let cases = value.allowedCases { line += " \(cases)" }
            if let given = value.defaultValue { line += " = \(given.json)" }
            if value.isOptional { line += "?" }
            lines.append(line)
        }
        lines.append("auth \(authorization(spec, api: api))")
        lines.append("sample \(sample(spec.defaultSample?.sample))")
        return lines
    }

    /// The base URL `generate swift` writes: the default environment's, else the API's.
    static func effectiveBaseURL(_ api: APISpec) -> String {
        api.defaultEnvironment.flatMap { name in api.environments.first { $0.name == name }?.baseURL?.source }
            ?? api.baseURL.source
    }

    /// The `Authorization` a case sends, as Moya's `AuthorizationType` names it: `generate swift`
    /// writes oauth2 and command auth as a bearer token the app obtains, digest as basic's
    /// challenge left to the app, and an API key in a header as a header.
    static func authorization(_ spec: CaseSpec, api: APISpec) -> String {
        func name(_ kind: AuthSpec.Kind?) -> String {
            switch kind {
            case nil: "none"
            case .bearer?, .oauth2?, .command?: "bearer"
            case .basic?: "basic"
            case .custom?: "custom"
            default: "none"
            }
        }
        switch spec.auth {
        case .none: return "none"
        case .inherited: return name(api.auth?.kind)
        case .explicit(let kind): return name(kind)
        case .scheme(let scheme): return name(api.authSchemes.first { $0.name == scheme }?.auth.kind)
        }
    }

    /// JSON as text, placeholders as `{name}`.
    static func text(_ json: JSONTemplate) -> String {
        switch json {
        case .null: "null"
        case .bool(let flag): flag ? "true" : "false"
        case .int(let number): String(number)
        case .double(let number): number.description
        case .string(let template): "\"" + template.source + "\""
        case .placeholder(let name, _): "{" + name + "}"
        case .array(let items): "[" + items.map(text).joined(separator: ",") + "]"
        case .object(let members): "{" + members.map { "\"\($0.key)\":" + text($0.value) }.joined(separator: ",") + "}"
        case .literal(let literal): String(decoding: literal.bytes, as: UTF8.self)
        }
    }

    /// The default sample's body; none (`--stub` answers 200 with an empty body) is an empty body,
    /// which is what `generate swift` writes for it (`Data()`).
    static func sample(_ sample: SampleSpec?) -> String {
        guard let sample, case .response(_, _, let body) = sample.outcome else {
            return sample == nil ? "empty" : "error"
        }
        switch body {
        case .empty: return "empty"
        case .text(let template): return "text \(template.source)"
        case .json(let json): return "json " + text(json)
        case .file(let path): return "file \(path.source)"
        }
    }

    func roundTrip(
        api name: String, folder: URL, fileName: String? = nil, renamed: Bool = false, in sandbox: Sandbox,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let generated = try sandbox.run(
            [
                "generate", "swift", name, "--targets", folder.path, "--module", "Moya", "--access", "internal", "-o",
                "gen/\(name).swift", "--force"
            ])
        XCTAssertEqual(generated.status, 0, generated.stderr, file: file, line: line)
        // The files the target file names (bodies, uploads, sample files) are beside it.
        let samples = folder.appendingPathComponent("samples")
        let copy = sandbox.root.appendingPathComponent("rt/samples")
        if FileManager.default.fileExists(atPath: samples.path), !FileManager.default.fileExists(atPath: copy.path) {
            try FileManager.default.createDirectory(
                at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: samples, to: copy)
        }
        let imported = try sandbox.run(
            ["import", "swift", "gen/\(name).swift", "--api", name, "-o", "rt/\(name).yaml", "--force"])
        XCTAssertEqual(imported.status, 0, imported.stderr, file: file, line: line)

        let originalPath = folder.appendingPathComponent(fileName ?? "\(name).yaml").path
        let original = TargetFileLoader.load(
            text: try String(contentsOfFile: originalPath, encoding: .utf8), file: originalPath, directory: folder.path)
        let againPath = sandbox.path("rt/\(name).yaml")
        let again = TargetFileLoader.load(
            text: try String(contentsOfFile: againPath, encoding: .utf8), file: againPath,
            directory: sandbox.path("rt"))
        guard let first = original.api, let second = again.api else {
            return XCTFail("\(name): \(original.diagnostics) \(again.diagnostics)", file: file, line: line)
        }
        if renamed {
            // Cases and values named as Swift keywords (`self`, `init`, `Type`) come back as the
            // enum has to spell them (`self_`, `init_`, `type`): compared in order, names aside.
            XCTAssertEqual(second.cases.count, first.cases.count, name, file: file, line: line)
            for (spec, other) in zip(first.cases, second.cases) {
                let kept = { (lines: [String]) in
                    lines.filter { $0.hasPrefix("method") || $0.hasPrefix("task") || $0.hasPrefix("auth") }
                }
                XCTAssertEqual(
                    kept(Self.summary(other, api: second)), kept(Self.summary(spec, api: first)),
                    "\(name).\(spec.name)",
                    file: file, line: line)
            }
            return
        }
        XCTAssertEqual(second.cases.map(\.name), first.cases.map(\.name), name, file: file, line: line)
        // A value's name is its Swift label after the trip (`per_page` is `perPage`), everywhere it is used.
        func swiftSpelling(_ lines: [String], _ spec: CaseSpec) -> [String] {
            var result = lines
            for value in spec.values where value.name.contains("_") {
                var spelled = ""
                var upper = false
                for character in value.name {
                    if character == "_" && !spelled.isEmpty {
                        upper = true
                    } else {
                        spelled += upper ? character.uppercased() : String(character)
                        upper = false
                    }
                }
                result = result.map {
                    $0.replacingOccurrences(of: "{\(value.name)}", with: "{\(spelled)}")
                        .replacingOccurrences(of: "value \(value.name):", with: "value \(spelled):")
                }
            }
            return result
        }
        XCTAssertEqual(second.baseURL.source, Self.effectiveBaseURL(first), name, file: file, line: line)
        XCTAssertEqual(second.description, first.description, name, file: file, line: line)
        for spec in first.cases {
            guard let other = second.cases.first(where: { $0.name == spec.name }) else { continue }
            let expected = swiftSpelling(Self.summary(spec, api: first), spec)
            let actual = Self.summary(other, api: second)
            XCTAssertEqual(
                actual.filter { !expected.contains($0) }, expected.filter { !actual.contains($0) },
                "\(name).\(spec.name): what the trip changed (got, expected)", file: file, line: line)
        }
    }

    func testShippedTargetFilesSurviveTheRoundTrip() throws {
        let sandbox = try Sandbox()
        for name in ["github", "httpbin", "httpbin-token", "httpbin-oauth"] {
            try roundTrip(api: name, folder: Self.repository.appendingPathComponent("targets"), in: sandbox)
        }
    }

    /// `generate swift`'s own fixtures: hostile names (keywords, unicode, quotes), keyed auth, `self`.
    func testGenerateFixturesSurviveTheRoundTrip() throws {
        let sandbox = try Sandbox()
        let folder = Self.repository.appendingPathComponent("Tests/Fixtures/generate")
        try roundTrip(api: "keyed", folder: folder, in: sandbox)
        try roundTrip(api: "hostile-names", folder: folder, fileName: "hostile.yaml", renamed: true, in: sandbox)
        try roundTrip(api: "self", folder: folder, renamed: true, in: sandbox)
        try roundTrip(api: "keywords", folder: folder, renamed: true, in: sandbox)
    }

    func testImportedFixturesSurviveTheRoundTrip() throws {
        let sandbox = try Sandbox()
        let fixtures = Self.repository.appendingPathComponent("Tests/Fixtures/swift")
        let imported = try sandbox.run(
            ["import", "swift", fixtures.path, "--samples", fixtures.appendingPathComponent("stubs").path])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        for name in ["github", "shopapi", "legacyapi", "ratings", "notesapi"] {
            try roundTrip(api: name, folder: sandbox.root.appendingPathComponent("targets"), in: sandbox)
        }
    }
}
