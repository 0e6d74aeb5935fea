import PositionedYAML
import TargetModel
import TargetSpec
import XCTest

/// `TargetFileLoader` validates cases one by one while the YAML loads; the result must be exactly
/// that of loading the whole tree and validating it: same diagnostics, same API.
final class StreamedCasesTests: XCTestCase {
    /// Loads `yaml` both ways and checks they agree; returns the streamed result's rendered errors.
    @discardableResult
    private func assertSameAsWholeTree(_ yaml: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        let streamed = TargetFileLoader.load(text: yaml, file: "t.yaml", directory: ".")
        var expectedDiagnostics: [Diagnostic]
        var expectedAPI: APISpec?
        var expectedName: String?
        do {
            let root = try YAMLLoader.load(Array(yaml.utf8), file: "t.yaml")
            var validator = TargetFileValidator(file: "t.yaml", directory: ".")
            expectedAPI = validator.validate(root)
            expectedDiagnostics = validator.diagnostics
            expectedName = validator.apiName
        } catch {
            expectedDiagnostics = error.diagnostics
            expectedName = TargetFileValidator.defaultAPIName(forFile: "t.yaml")
        }
        XCTAssertEqual(streamed.diagnostics, expectedDiagnostics, file: file, line: line)
        XCTAssertEqual(streamed.api, expectedAPI, file: file, line: line)
        XCTAssertEqual(streamed.apiName, expectedName, file: file, line: line)
        return streamed.renderedDiagnostics()
    }

    func testAValidFileGivesTheSameAPI() {
        let rendered = assertSameAsWholeTree(
            """
            api: shop
            baseURL: https://example.com
            auth: {type: bearer, token: "${TOKEN}"}
            cases:
              list: {path: /items, sample: "[]"}
              item:
                values: [{id: int}]
                path: /items/{id}
                auth: bearer
                sample: {json: {id: "{id}"}}
              open: {path: /open, auth: none, sample: ok}
            """)
        XCTAssertEqual(rendered, "")
    }

    func testCaseAuthIsCheckedAgainstAnAPIAuthThatComesAfterTheCases() {
        let rendered = assertSameAsWholeTree(
            """
            baseURL: https://example.com
            cases:
              a: {path: /a, auth: basic, sample: x}
              b: {path: /b, auth: bearer, sample: x}
            auth: {type: bearer, token: "${TOKEN}"}
            """)
        XCTAssertTrue(rendered.contains("case auth 'basic' does not match the API's auth type 'bearer'"), rendered)
    }

    func testCaseAuthWithoutAnyAPIAuthOrWithABrokenOne() {
        assertSameAsWholeTree(
            """
            baseURL: https://example.com
            cases:
              a: {path: /a, auth: bearer, sample: x}
            """)
        assertSameAsWholeTree(
            """
            auth: {type: bearer}
            baseURL: https://example.com
            cases:
              a: {path: /a, auth: basic, sample: x}
            """)
    }

    func testEmptyAnchoredAndMisshapenCases() {
        assertSameAsWholeTree("baseURL: https://example.com\ncases: {}\n")
        assertSameAsWholeTree("baseURL: https://example.com\ncases:\n")
        assertSameAsWholeTree("baseURL: https://example.com\ncases: [a, b]\n")
        assertSameAsWholeTree("baseURL: https://example.com\ncases: &all\n  a: {path: /a, sample: x}\n")
        assertSameAsWholeTree("base: &c {a: {path: /a, sample: x}}\nbaseURL: https://example.com\ncases: *c\n")
    }

    func testErrorsInManyCasesAreAllReported() {
        let rendered = assertSameAsWholeTree(
            """
            baseURL: https://example.com
            cases:
              one: {pth: /a}
              two: {path: a, method: GOT}
              3bad: {path: /c, values: [{x: int}]}
              four: {path: "/d/{nope}", task: {json: {a: 1}, data: x}}
            """)
        XCTAssertEqual(rendered.components(separatedBy: ": error: ").count - 1, 8, rendered)
    }

    func testLoadErrorsAfterTheCasesReplaceEverythingElse() {
        // Duplicate case names, a syntax error after valid cases, and a second document: only
        // the load errors are reported, as when the whole tree is loaded first.
        assertSameAsWholeTree("baseURL: https://example.com\ncases:\n  a: {path: /a}\n  a: {pth: /b}\n")
        assertSameAsWholeTree("cases:\n  a: {pth: /a}\nbaseURL: [https://example.com\n")
        assertSameAsWholeTree("cases:\n  a: {pth: /a}\n---\nb: 1\n")
        assertSameAsWholeTree("cases: {a: {pth: /a}}\ncases: {b: {path: /b}}\n")
    }
}
