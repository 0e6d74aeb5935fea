import SwiftImport
import XCTest

/// The engine alone: what `moya-cli import swift` is built on, without the binary (the command's
/// tests, through the built binary and its helper, are ImportSwiftTests and ImportSwiftRoundTripTests).
final class SwiftImportTests: XCTestCase {
    func importing(_ source: String, options: SwiftImportOptions = SwiftImportOptions()) throws -> SwiftImportResult {
        try SwiftImporter.importSources([("API.swift", Array(source.utf8))], options: options)
    }

    func testUnlabelledValuesAreNamedByTheSwitchAndEscapesAreRead() throws {
        let result = try importing(
            #"""
            enum Shop: TargetType {
                case item(String, Int)
                var baseURL: URL { URL(string: "https://shop.example")! }
                var path: String {
                    switch self {
                    case let .item(sku, count): return "/items/\(sku)/\(count)/caf\u{E9}\t\"q\""
                    }
                }
            }
            """#)
        let text = try XCTUnwrap(result.apis.first?.text)
        XCTAssertTrue(text.contains("values: [{sku: string}, {count: int}]"), text)
        XCTAssertTrue(text.contains(#"path: "/items/{sku}/{count}/café\t\"q\"""#), text)
    }

    func testRefusalsNameTheirPlace() {
        XCTAssertThrowsError(try importing("struct A {}")) { error in
            XCTAssertEqual((error as? SwiftImportError)?.place, "API.swift")
        }
        let deep = "let x = " + String(repeating: "[", count: 13) + "1" + String(repeating: "]", count: 13)
        XCTAssertThrowsError(try importing("enum A: TargetType { case a }\n" + deep)) { error in
            XCTAssertEqual((error as? SwiftImportError)?.place, "API.swift:2:9")
        }
        XCTAssertThrowsError(
            try SwiftImporter.importSources(
                [("Bad.swift", Array("enum A: TargetType { case a }\n// ".utf8) + [0xFF])],
                options: SwiftImportOptions())
        ) { error in
            XCTAssertEqual((error as? SwiftImportError)?.place, "Bad.swift:2:4")
        }
    }

    func testSeveralTypesAndTheOneAskedFor() throws {
        let source = """
            protocol Base: TargetType {}
            enum One: Base { case a }
            enum Two { case b }
            extension Two: TargetType {}
            """
        XCTAssertEqual(try importing(source).apis.map(\.name), ["one", "two"])
        XCTAssertEqual(try importing(source, options: SwiftImportOptions(apiName: "two")).apis.map(\.typeName), ["Two"])
    }
}
