import Foundation
import OrderedJSON
import XCTest

/// `.foundationLayout` is what Moya's `JSONEncoding.prettyPrinted` sends: Foundation's own
/// `JSONSerialization` is the reference, run here on the same values.
final class FoundationLayoutTests: XCTestCase {
    private static let documents = [
        #"{"a": 1}"#,
        #"{}"#,
        #"[]"#,
        #"{"a": {}, "b": [], "c": [{}, [], [[]]], "d": {"e": {"f": {}}}}"#,
        #"{"url": "https://example.com/a/b?c=d/e", "/": "/", "path/key": ["/x/", "no slash"]}"#,
        #"{"text": "tab\t quote\" backslash\\ newline\n control\u0001 é 😀", "n": null, "t": true, "f": false}"#,
        #"{"int": -42, "zero": 0, "half": 0.5, "nested": {"list": [1, 2, {"k": "v"}]}}"#,
        #"[1, "two", [3, [4, []]], {"five": {}}]"#
    ]

    func testPrettyBodiesAreWrittenAsJSONSerializationWritesThem() throws {
        for text in Self.documents {
            let value = try JSONValue(parsing: text)
            let foundationObject = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
            let reference = try JSONSerialization.data(
                withJSONObject: foundationObject, options: [.prettyPrinted, .sortedKeys])
            let written = value.serialized(options: [.prettyPrinted, .foundationLayout, .sortedKeys])
            XCTAssertEqual(
                String(decoding: written, as: UTF8.self), String(decoding: reference, as: UTF8.self), text)
        }
    }

    func testTheLayoutChangesNothingWithoutPrettyPrinting() throws {
        let value = try JSONValue(parsing: #"{"url": "a/b", "e": {}, "l": []}"#)
        XCTAssertEqual(value.serializedString(options: .foundationLayout), #"{"url":"a/b","e":{},"l":[]}"#)
        XCTAssertEqual(
            value.serializedString(options: .prettyPrinted), "{\n  \"url\": \"a/b\",\n  \"e\": {},\n  \"l\": []\n}")
    }
}
