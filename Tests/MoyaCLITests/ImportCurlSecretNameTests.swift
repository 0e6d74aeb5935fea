import CLITestSupport
import Foundation
import XCTest

/// Which names `import curl` takes for a credential's, both ways: a query parameter or header named
/// like one (`key`, Google's `?key=AIza…`, `api_key`, `access_token`, …) is never written, and an
/// ordinary name that merely contains letters of one (`author`, `keyword`, `monkey`) is written as
/// it was sent.
final class ImportCurlSecretNameTests: XCTestCase {
    var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
    }

    static let secretNames = [
        "key", "Key", "api_key", "apikey", "api-key", "X-API-KEY", "access_token", "token", "password", "passwd",
        "secret", "client_secret", "auth", "X-Auth", "auth_code", "Authorization-Code", "session", "sessionid",
        "signature", "private_key", "access_key", "csrf_token", "credential", "id_token", "refresh_token"
    ]
    static let plainNames = [
        "author", "authors", "keyword", "keywords", "monkey", "keyboard", "page", "q", "sort", "name", "turkey",
        "donkey", "authority", "authorization_id", "token_type", "return_authn_schemes", "setup_token_id"
    ]

    /// A distinct value for the name at `index`, one no other value contains.
    private func value(_ index: Int) -> String { "v\(index)zq" }

    private func importCurl(_ command: String) throws -> CLIResult {
        try CLIRunner.run(
            ["import", "curl", "-", "--api", "names", "--case", "one", "-o", "-"], currentDirectory: folder.url,
            stdin: Data((command + "\n").utf8))
    }

    func testCredentialNamedQueryParametersAreNeverWrittenAndOthersAre() throws {
        let names = Self.secretNames + Self.plainNames
        for (index, name) in names.enumerated() {
            let result = try importCurl("curl 'https://api.example.com/v1/find?\(name)=\(value(index))&page2=2'")
            XCTAssertEqual(result.status, 0, "\(name): \(result.stderr)")
            let written = result.stdout + result.stderr
            if Self.secretNames.contains(name) {
                XCTAssertFalse(written.contains(value(index)), "\(name) was written:\n\(result.stdout)")
                XCTAssertTrue(
                    result.stderr.contains("takes the query parameter \(name), a credential, as its value"),
                    "\(name): \(result.stderr)")
            } else {
                XCTAssertTrue(result.stdout.contains(value(index)), "\(name) was not written:\n\(result.stdout)")
                XCTAssertFalse(result.stderr.contains("a credential"), "\(name): \(result.stderr)")
            }
        }
    }

    func testCredentialNamedHeadersAreReadFromTheEnvironmentAndOthersAreWritten() throws {
        for (index, name) in (Self.secretNames + Self.plainNames).enumerated() {
            let result = try importCurl("curl -H '\(name): \(value(index))' https://api.example.com/v1/find")
            XCTAssertEqual(result.status, 0, "\(name): \(result.stderr)")
            if Self.secretNames.contains(name) {
                XCTAssertFalse(
                    (result.stdout + result.stderr).contains(value(index)), "\(name) was written:\n\(result.stdout)")
                XCTAssertTrue(result.stdout.contains("${secret:MOYA_NAMES_"), "\(name): \(result.stdout)")
            } else {
                XCTAssertTrue(result.stdout.contains(value(index)), "\(name) was not written:\n\(result.stdout)")
                XCTAssertFalse(result.stdout.contains("${secret:"), "\(name): \(result.stdout)")
            }
        }
    }

    /// Google's and YouTube's form, as issue 44 found it written in clear.
    func testAGoogleMapsKeyIsNotWritten() throws {
        let result = try importCurl(
            "curl 'https://maps.googleapis.com/maps/api/geocode/json?address=Paris&key=AIzaSyD-canary-9f'")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse((result.stdout + result.stderr).contains("AIzaSyD-canary-9f"), result.stdout)
        XCTAssertTrue(result.stdout.contains("values: [{key: string}]"), result.stdout)
        XCTAssertTrue(result.stdout.contains("address: Paris"), result.stdout)
    }
}
