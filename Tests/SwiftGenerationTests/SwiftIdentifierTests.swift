import SwiftGeneration
import XCTest

final class SwiftIdentifierTests: XCTestCase {
    func testCamelCase() {
        XCTAssertEqual(SwiftIdentifier.lowerCamel("userProfile"), "userProfile")
        XCTAssertEqual(SwiftIdentifier.lowerCamel("user_profile"), "userProfile")
        XCTAssertEqual(SwiftIdentifier.lowerCamel("help-wanted-issues"), "helpWantedIssues")
        XCTAssertEqual(SwiftIdentifier.lowerCamel("URLPath"), "urlPath")
        XCTAssertEqual(SwiftIdentifier.lowerCamel("URL"), "url")
        XCTAssertEqual(SwiftIdentifier.lowerCamel("a b"), "aB")
        XCTAssertEqual(SwiftIdentifier.lowerCamel("2fa"), "_2fa")
        XCTAssertEqual(SwiftIdentifier.lowerCamel("café"), "café")
        XCTAssertEqual(SwiftIdentifier.lowerCamel("🚀"), "value")
        XCTAssertEqual(SwiftIdentifier.lowerCamel(""), "value")
        XCTAssertEqual(SwiftIdentifier.upperCamel("httpbin-token"), "HttpbinToken")
        XCTAssertEqual(SwiftIdentifier.upperCamel("pet_store"), "PetStore")
        XCTAssertEqual(SwiftIdentifier.upperCamel("9lives"), "_9lives")
    }

    func testKeywordsAreBacktickedOrRenamed() {
        XCTAssertEqual(SwiftIdentifier.written("default"), "`default`")
        XCTAssertEqual(SwiftIdentifier.written("open"), "`open`")
        XCTAssertEqual(SwiftIdentifier.written("name"), "name")
        XCTAssertEqual(SwiftIdentifier.label("in"), "in")
        XCTAssertEqual(SwiftIdentifier.label("inout"), "`inout`")
        var taken: Set<String> = []
        XCTAssertEqual(SwiftIdentifier.unique("self", in: &taken), "self_")
        XCTAssertEqual(SwiftIdentifier.unique("Type", in: &taken), "Type_")
        XCTAssertEqual(SwiftIdentifier.unique("path", in: &taken), "path")
        XCTAssertEqual(SwiftIdentifier.unique("path", in: &taken), "path2")
        XCTAssertEqual(SwiftIdentifier.unique("path", in: &taken), "path3")
    }

    func testTypeNamesFromTheCommandLine() {
        XCTAssertTrue(SwiftIdentifier.isPlainIdentifier("GitHubAPI"))
        XCTAssertTrue(SwiftIdentifier.isPlainIdentifier("_Shop2"))
        for name in ["", "2Shop", "a b", "self", "Type", "class", "Shop;import Foundation", "Shop\n"] {
            XCTAssertFalse(SwiftIdentifier.isPlainIdentifier(name), name)
        }
    }
}
