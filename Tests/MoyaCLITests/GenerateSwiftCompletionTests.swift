import XCTest

extension CompletionTests {
    func testGenerateSwiftCompletesAPIsAndItsChoices() throws {
        XCTAssertEqual(try bashCompletions(["moya-cli", "generate", ""]), ["--version", "-h", "--help", "swift"])
        XCTAssertEqual(try bashCompletions(["moya-cli", "generate", "swift", "httpbin-o"]), ["httpbin-oauth"])
        XCTAssertEqual(
            try bashCompletions(["moya-cli", "generate", "swift", "github", "--module", ""]), ["MoyaKit", "Moya"])
        XCTAssertEqual(try bashCompletions(["moya-cli", "generate", "swift", "github", "--access", "i"]), ["internal"])
    }
}
