import OpenAPIImport
import TargetModel
import XCTest

/// Issue 39: an `anyOf` or `oneOf` of scalars is one value (OpenAI's 3.1 description writes its
/// nullable strings and open enums so); one with an object, a list or itself in it is none.
final class ScalarUnionTests: XCTestCase {
    func testUnionsOfScalarsAreTypedByTheirBranches() throws {
        let fixture = try ImportFixture(
            yaml: """
                openapi: 3.1.0
                info: {title: Unions, version: "1"}
                paths:
                  /u:
                    get:
                      operationId: unions
                      parameters:
                        - {name: nullable, in: query, schema: {anyOf: [{type: string}, {type: 'null'}]}}
                        - {name: count, in: query, schema: {oneOf: [{type: integer}, {type: 'null'}]}}
                        - {name: ratio, in: query, schema: {anyOf: [{type: integer}, {type: number}]}}
                        - {name: mixed, in: query, schema: {oneOf: [{type: integer}, {type: string}]}}
                        - {name: closed, in: query, schema: {anyOf: [{enum: [a, b]}, {enum: [c, a]}]}}
                        - {name: open, in: query, required: true, schema: {anyOf: [{type: string}, {enum: [x, y]}]}}
                        - {name: shape, in: query, schema: {anyOf: [{type: string}, {type: object}]}}
                        - {name: selfish, in: query, schema: {$ref: '#/components/schemas/Selfish'}}
                      responses: {'200': {description: ok}}
                components:
                  schemas:
                    Selfish: {anyOf: [{$ref: '#/components/schemas/Selfish'}, {type: 'null'}]}
                """)
        defer { fixture.remove() }
        let values = try fixture.case("unions").values
        XCTAssertEqual(
            values.map { "\($0.name): \($0.type)" },
            [
                "open: string", "nullable: string", "count: int", "ratio: double", "mixed: string",
                "closed: one of a, b, c"
            ], "the required value first")
        XCTAssertEqual(
            try fixture.value("open", of: "unions").description,
            "(for example x, y; any other text is accepted)")
        XCTAssertTrue(
            fixture.result.text.contains("optional query parameter 'shape' is not a string"), fixture.result.text)
        XCTAssertTrue(
            fixture.result.text.contains("optional query parameter 'selfish' is not a string"), fixture.result.text)
        XCTAssertTrue(fixture.result.text.contains("    examples: [{open: x}]\n"), fixture.result.text)
    }
}
