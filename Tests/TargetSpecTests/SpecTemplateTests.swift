import PositionedYAML
import XCTest

@testable import TargetModel
@testable import TargetSpec

/// Template parsing, escaping and rendering; suggestions; the JSON syntax checker.
final class SpecTemplateTests: XCTestCase {
    private func parse(_ text: String) -> (Template, [String]) {
        let (template, problems) = TemplateParser.parse(text, mark: Mark(line: 3, column: 5), contentOffset: 0)
        return (template, problems.map { "\($0.mark): \($0.message)" })
    }

    func testSegmentsAndEscapes() {
        let (template, problems) = parse(
            "/a/{name}/{{literal}}/$${HOME}/${secret:TOKEN}/${LANG:-en}/{not a placeholder}/}")
        XCTAssertEqual(problems, [])
        XCTAssertEqual(
            template.segments,
            [
                .literal("/a/"),
                .placeholder(name: "name", mark: Mark(line: 3, column: 8)),
                .literal("/{literal}/${HOME}/"),
                .environment(
                    Template.EnvironmentReference(
                        name: "TOKEN", fallback: nil, isSecret: true, mark: Mark(line: 3, column: 36))),
                .literal("/"),
                .environment(
                    Template.EnvironmentReference(
                        name: "LANG", fallback: "en", isSecret: false, mark: Mark(line: 3, column: 52))),
                .literal("/{not a placeholder}/}")
            ])
        XCTAssertTrue(template.containsSecret)
        XCTAssertNil(template.literalText)
        XCTAssertEqual(parse("{id}").0.soloPlaceholder, "id")
        XCTAssertNil(parse("#{id}").0.soloPlaceholder)
    }

    func testMalformedReferences() {
        XCTAssertEqual(
            parse("a ${} b").1,
            [
                "3:7: '${}' is not a valid environment reference; write ${NAME}, ${NAME:-fallback} or ${secret:NAME} (NAME: letters, digits, _), or '$${' for a literal '${'"
            ])
        XCTAssertEqual(
            parse("${OPEN").1, ["3:5: unterminated '${' reference; close it with '}' or write '$${' for a literal '${'"]
        )
    }

    func testPathRenderingEscapesOneSegment() throws {
        let (path, _) = parse("/users/{name}/repos")
        XCTAssertEqual(
            try path.render(arguments: ["name": .string("a/b c?é~_.-")], escaping: .pathSegment),
            "/users/a%2Fb%20c%3F%C3%A9~_.-/repos")
        XCTAssertEqual(
            try path.render(arguments: ["name": .string("a/b")]), "/users/a/b/repos", "no escaping outside paths")
        XCTAssertEqual(
            try parse("/n/{n}/{x}").0.render(arguments: ["n": .int(-3), "x": .double(2.5)], escaping: .pathSegment),
            "/n/-3/2.5")
    }

    func testEnvironmentLookupOrderFallbackAndRedaction() throws {
        let (template, _) = parse("${TENANT}:${secret:TOKEN}:${LANG:-en}")
        let environment = ["TENANT": "process", "TOKEN": "s3cr3t"]
        XCTAssertEqual(try template.render(environment: environment), "process:s3cr3t:en")
        XCTAssertEqual(
            try template.render(environment: environment, variables: ["TENANT": "staging"]), "staging:s3cr3t:en",
            "an environment's variables win")
        XCTAssertEqual(try template.render(environment: environment, redactingSecrets: true), "process:<redacted>:en")
        XCTAssertThrowsError(try template.render(environment: ["TENANT": "x"])) { error in
            guard let error = error as? TemplateRenderError else { return XCTFail("\(error)") }
            XCTAssertEqual(error, .unsetEnvironmentVariable(name: "TOKEN", mark: Mark(line: 3, column: 15)))
            XCTAssertEqual(
                DiagnosticRenderer.render(error.diagnostic(file: "targets/github.yaml"), lines: nil),
                "targets/github.yaml:3:15: error: environment variable 'TOKEN' is not set; export it, or set it in the environment's 'variables'"
            )
        }
    }

    func testUnsetVariableRendersWithItsSourceLine() throws {
        let yaml =
            "baseURL: https://a.example\nauth: {type: bearer, token: \"${GITHUB_TOKEN}\"}\ncases: {a: {path: /a, sample: ok}}\n"
        let result = SpecTest.load(yaml, file: "targets/github.yaml")
        guard case .bearer(let token)? = try XCTUnwrap(result.api).auth else { return XCTFail() }
        XCTAssertThrowsError(try token.render(environment: [:])) { error in
            guard let error = error as? TemplateRenderError else { return XCTFail("\(error)") }
            // A file without diagnostics keeps no lines once loaded; the file's own give the caret.
            XCTAssertNil(result.sourceLines)
            XCTAssertEqual(
                DiagnosticRenderer.render(
                    error.diagnostic(file: "targets/github.yaml"), lines: SourceLines(bytes: Array(yaml.utf8))),
                """
                targets/github.yaml:2:30: error: environment variable 'GITHUB_TOKEN' is not set; export it, or set it in the environment's 'variables'
                    auth: {type: bearer, token: "${GITHUB_TOKEN}"}
                                                 ^
                """)
        }
    }

    func testEnvironmentVariablesResolveFromTheProcess() throws {
        let yaml =
            "baseURL: https://a.example\nenvironments:\n  dev: {variables: {HOST: \"${USER:-me}.dev\"}}\ncases: {a: {path: /a, sample: ok}}\n"
        let api = try XCTUnwrap(SpecTest.load(yaml).api)
        XCTAssertEqual(
            try api.environment(named: "dev").resolvedVariables(processEnvironment: ["USER": "kim"]),
            ["HOST": "kim.dev"])
        XCTAssertEqual(try api.environment(named: "dev").resolvedVariables(processEnvironment: [:]), ["HOST": "me.dev"])
    }

    func testSuggestions() {
        XCTAssertEqual(Suggestion.closest(to: "pth", in: ["description", "path", "method"]), "path")
        XCTAssertEqual(Suggestion.closest(to: "get", in: ["GET", "POST"]), "GET")
        XCTAssertEqual(Suggestion.closest(to: "user", in: ["zen", "userProfile"]), "userProfile", "a prefix")
        XCTAssertEqual(Suggestion.closest(to: "strng", in: ValueType.names), "string")
        XCTAssertNil(Suggestion.closest(to: "x", in: ["id", "ab"]))
        XCTAssertNil(Suggestion.closest(to: "dns", in: ["tls", "timeout"]))
        XCTAssertEqual(Suggestion.didYouMean("nme", in: ["name"]) { "{\($0)}" }, "; did you mean '{name}'?")
        XCTAssertEqual(Suggestion.editDistance("kitten", "sitting"), 3)
    }

    /// A template that is its source as one literal keeps no segment array; it must answer
    /// every question as the same template built from segments does.
    func testALiteralTemplateIsTheSameHoweverItIsMade() throws {
        let mark = Mark(line: 3, column: 7)
        for text in ["", "plain text", "Item 0", "caf\u{E9} \u{1F600}", "{{x}}", "a}b", "$${HOME}"] {
            let parsed = TemplateParser.parse(text, mark: mark, contentOffset: 0).0
            let fromSegments = Template(segments: parsed.segments, source: text, mark: mark)
            XCTAssertEqual(parsed, fromSegments, text)
            XCTAssertEqual(parsed.hashValue, fromSegments.hashValue, text)
            XCTAssertEqual(parsed.segments, fromSegments.segments, text)
            XCTAssertEqual(parsed.literalText, fromSegments.literalText, text)
            XCTAssertEqual(parsed.representativeText, fromSegments.representativeText, text)
            XCTAssertEqual(try parsed.render(), try fromSegments.render(), text)
            XCTAssertNil(parsed.soloPlaceholder, text)
            XCTAssertEqual(parsed.environmentReferences, [], text)
        }
        // Plain text is one literal segment, or none when empty; escapes are not the source.
        XCTAssertEqual(Template(literal: "abc", mark: mark).segments, [.literal("abc")])
        XCTAssertEqual(Template(literal: "", mark: mark).segments, [])
        XCTAssertEqual(
            Template(literal: "abc", mark: mark), Template(segments: [.literal("abc")], source: "abc", mark: mark))
        XCTAssertEqual(TemplateParser.parse("{{x}}", mark: mark, contentOffset: 0).0.literalText, "{x}")
        XCTAssertNotEqual(
            Template(segments: [.literal("{x}")], source: "{{x}}", mark: mark),
            Template(segments: [.literal("{{x}}")], source: "{{x}}", mark: mark))
        // Changing the segments of a literal template keeps its source and drops the shortcut.
        var marked = TemplateParser.parse("${TOKEN}", mark: mark, contentOffset: 0).0
        marked = marked.markingReferencesSecret()
        XCTAssertTrue(marked.containsSecret)
        var literal = Template(literal: "abc", mark: mark)
        literal.segments = [.literal("ab"), .placeholder(name: "c", mark: mark)]
        XCTAssertEqual(literal.source, "abc")
        XCTAssertNil(literal.literalText)
        XCTAssertEqual(try literal.render(arguments: ["c": .string("Z")]), "abZ")
    }
}
