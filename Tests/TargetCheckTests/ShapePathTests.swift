import TargetCheck
import XCTest

/// Issue 16: drift paths decide `$.name` or `$["name"]` from a key's bytes; the answers must be
/// those of the scalar-property rule they replaced (kept below as the reference).
final class ShapePathTests: XCTestCase {
    private func reference(_ parent: String, key: String) -> String {
        let isIdentifier =
            !key.isEmpty
            && key.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_")
            } && !("0"..."9").contains(key.unicodeScalars.first ?? "0")
        if isIdentifier { return parent + "." + key }
        var escaped = "\""
        for character in key {
            switch character {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            default: escaped.append(character)
            }
        }
        return parent + "[" + escaped + "\"]"
    }

    func testPathsAreTheScalarRulesPaths() {
        let keys = [
            "login", "Login_2", "_x", "x9", "9x", "0", "", "a-b", "a b", "a.b", "caf\u{E9}", "\u{AA}", "\u{2160}",
            "\u{1F600}",
            "quote\"d", "back\\slash", "tab\t", "ZZ", "z", "[", "`", "@", "{", "a\u{301}"
        ]
        for key in keys {
            XCTAssertEqual(ShapeComparison.path("$", key: key), reference("$", key: key), "key \(key.debugDescription)")
        }
        XCTAssertEqual(ShapeComparison.path("$", key: "owner"), "$.owner")
        XCTAssertEqual(ShapeComparison.path("$", key: "9lives"), "$[\"9lives\"]")
    }
}
