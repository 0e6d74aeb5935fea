import Foundation
import OpenAPIImport
import TargetSpec
import TextSafety
import XCTest

/// Specs are untrusted input: whatever a spec holds, the import either writes a file that
/// validates or reports the spec invalid — never a file that does not load, a crash or a hang.
final class HostileSpecTests: XCTestCase {
    /// Strings that have broken YAML emitters, templates, headers and URLs.
    static let nasty: [String] = [
        "", " ", "a b", "{", "}", "{id}", "{{", "${HOME}", "$${x}", "${secret:X}", "a:b", "- x", "# c", "&a", "*a",
        "!tag",
        "'", "\"", "\\", "\\n", "\n", "\r\n", "\t", "\u{1B}[31m", "\u{7F}", "\u{85}", "\u{2028}", "\u{FEFF}x", "ü", "🙂",
        "true", "null", "~", "0x10", "1e3", "-1", ".inf", "yes", "no", "..", "../..", "/", "//", "?", "#", "%", "%2F",
        "a/b", "http://evil.example", "none", "help", "--help", "-x", "cases", "api", String(repeating: "x", count: 300)
    ]

    /// Every field a string of the spec reaches, with `value` in it.
    static func spec(_ value: String) -> String {
        let v = YAMLScalar.doubleQuoted(value)
        return """
            openapi: 3.1.0
            info: {title: \(v), version: \(v), description: \(v)}
            servers:
              - {url: \(YAMLScalar.doubleQuoted("https://example.com/" + value)), description: \(v)}
              - {url: \(v), description: \(v)}
            components:
              securitySchemes:
                \(v): {type: apiKey, in: header, name: \(v)}
              schemas:
                Thing:
                  type: object
                  required: [\(v)]
                  properties:
                    \(v): {type: string, example: \(v), enum: [\(v), b]}
                    other: {type: string, format: \(v), default: \(v)}
            security: [{\(v): []}]
            paths:
              \(YAMLScalar.doubleQuoted("/things/{" + value + "}/" + value)):
                post:
                  operationId: \(v)
                  summary: \(v)
                  tags: [\(v)]
                  parameters:
                    - {name: \(v), in: path, required: true, schema: {type: string}, example: \(v)}
                    - {name: \(v), in: query, schema: {type: string, enum: [\(v)]}, example: \(v)}
                    - {name: \(v), in: header, schema: {type: string, default: \(v)}}
                  requestBody:
                    required: true
                    content:
                      application/json: {schema: {$ref: '#/components/schemas/Thing'}, example: {\(v): \(v)}}
                  responses:
                    '200':
                      description: \(v)
                      content:
                        application/json: {example: {\(v): [\(v), {\(v): \(v)}]}}
                        text/plain: {example: \(v)}
                    '404':
                      description: \(v)
                      content: {\(v): {schema: {type: string}}}
              /plain:
                get:
                  operationId: \(YAMLScalar.doubleQuoted(value + "op"))
                  responses: {'201': {description: ok, content: {text/plain: {example: \(v)}}}}
            """
    }

    func testNastyStringsInEveryFieldNeverMakeAFileThatDoesNotLoad() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for value in Self.nasty {
            let text = Self.spec(value)
            do {
                let result = try OpenAPIImporter.importDocument(
                    Array(text.utf8), file: "spec.yaml", options: OpenAPIImportOptions())
                let loaded = TargetFileLoader.load(text: result.text, file: "out.yaml", directory: folder.path)
                XCTAssertFalse(
                    loaded.hasErrors, "\(value.debugDescription):\n\(loaded.renderedDiagnostics())\n\(result.text)")
                XCTAssertFalse(
                    result.text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x7F || $0.value == 0x85 },
                    "no control character written raw for \(value.debugDescription)")
            } catch .invalidSpec(let problems) {
                XCTAssertFalse(problems.isEmpty)
            } catch {
                XCTFail("\(value.debugDescription): \(error)")
            }
        }
    }

    func testReferenceBombsAndDeepSchemasStayCheap() throws {
        // Each schema is all of the next one, six times over: 6^12 paths through the references.
        var schemas = ""
        for level in 0..<12 {
            let next = "'#/components/schemas/S\(level + 1)'"
            schemas +=
                "    S\(level): {allOf: [{$ref: \(next)}, {$ref: \(next)}, {$ref: \(next)}, {$ref: \(next)}, {$ref: \(next)}, {$ref: \(next)}], properties: {p\(level): {type: string}}}\n"
        }
        schemas += "    S12: {type: object, properties: {leaf: {type: integer}}}\n"
        // And a chain of a thousand references to references.
        var chain = ""
        for index in 0..<1000 { chain += "    C\(index): {$ref: '#/components/schemas/C\(index + 1)'}\n" }
        chain += "    C1000: {type: string}\n"
        let text = """
            openapi: 3.0.0
            info: {title: Bomb, version: "1"}
            servers: [{url: "https://example.com"}]
            paths:
              /bomb:
                post:
                  operationId: bomb
                  requestBody: {content: {application/json: {schema: {$ref: '#/components/schemas/S0'}}}}
                  responses: {'200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/S0'}}}}}
              /chain:
                get:
                  operationId: chain
                  parameters: [{name: c, in: query, schema: {$ref: '#/components/schemas/C0'}}]
                  responses: {'200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/C0'}}}}}
            components:
              schemas:
            \(schemas)\(chain)
            """
        let start = Date()
        do {
            let result = try OpenAPIImporter.importDocument(
                Array(text.utf8), file: "bomb.yaml", options: OpenAPIImportOptions())
            XCTAssertTrue(result.text.contains("bomb:"))
        } catch .invalidSpec(let problems) {
            XCTAssertTrue(problems.contains { $0.message.contains("references") }, "\(problems)")
        }
        // Not a timed test of speed: a guard against exponential work, which would take hours.
        XCTAssertLessThan(Date().timeIntervalSince(start), 60)
    }
}
