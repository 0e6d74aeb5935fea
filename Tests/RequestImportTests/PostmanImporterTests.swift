import TargetSpec
import TextSafety
import XCTest

@testable import RequestImport

/// Postman collections into one target file: names, variables, base URL, auth and the bounds.
final class PostmanImporterTests: XCTestCase {
    private func read(_ items: String, variables: String = "[]", environment: String? = nil, auth: String = "null")
        throws -> PostmanImporter.Result
    {
        try PostmanImporter.read(
            Array(#"{"info": {"name": "T"}, "auth": \#(auth), "variable": \#(variables), "item": \#(items)}"#.utf8),
            environment: environment.map { Array($0.utf8) }, apiName: nil, header: [])
    }

    func testFoldersAndNamesMakeCamelCaseCaseNamesNumberedWhenTaken() throws {
        XCTAssertEqual(PostmanImporter.caseName(folders: ["Users"], name: "Get user"), "usersGetUser")
        XCTAssertEqual(PostmanImporter.caseName(folders: ["API v2", "OK!"], name: "42 things"), "apiV2OK42Things")
        XCTAssertEqual(PostmanImporter.caseName(folders: [], name: "…"), "request")
        XCTAssertEqual(PostmanImporter.caseName(folders: [], name: "2fa"), "request2fa")
        let result = try read(
            #"[{"name": "A", "request": "http://h/1"}, {"name": "a", "request": "http://h/2"}, {"name": "A", "request": "http://h/3"}]"#
        )
        XCTAssertEqual(result.caseNames, ["a", "a2", "a3"])
    }

    func testReferencesSplitAndNamesMapped() {
        XCTAssertEqual(
            PostmanTemplate.pieces("{{base}}/x/{{ id}}{{}}{{a{b}}"),
            [.variable("base"), .text("/x/"), .variable(" id"), .text("{{}}{{a{b}}")])
        XCTAssertEqual(PostmanVariables.identifier("tenant-id"), "tenant_id")
        XCTAssertEqual(PostmanVariables.identifier("1st"), "_1st")
        XCTAssertTrue(CredentialNames.looksSecret("clientKey"))
        XCTAssertTrue(CredentialNames.looksSecret("oauthCode"))
        XCTAssertFalse(CredentialNames.looksSecret("userId"))
    }

    func testExpansionIsBoundedAndStopsAtSecretsAndCycles() throws {
        var variables = PostmanVariables()
        variables.collection = try PostmanVariables.read(
            .array(
                (0..<40).map { index in
                    .object([
                        ("key", .string("v\(index)")), ("value", .string(index == 39 ? "end" : "{{v\(index + 1)}}"))
                    ])
                } + [
                    .object([("key", .string("a")), ("value", .string("{{b}}"))]),
                    .object([("key", .string("b")), ("value", .string("{{a}}"))]),
                    .object([("key", .string("id")), ("value", .string("{{apiToken}}"))]),
                    .object([("key", .string("apiToken")), ("value", .string("t"))])
                ]), at: "$.variable")
        variables.findCycles()
        XCTAssertEqual(variables.cyclic, ["a", "b"])
        XCTAssertNil(variables.expanded("v0"), "deeper than the bound")
        XCTAssertEqual(variables.expanded("v30"), "end")
        XCTAssertNil(variables.expanded("a"))
        XCTAssertNil(variables.expanded("id"), "a secret is never a default")
    }

    func testTheMostCommonOriginIsTheAPIsAndOthersTheirCases() throws {
        let result = try read(
            #"[{"name": "a", "request": "{{baseUrl}}/a"}, {"name": "b", "request": "https://files.example.com/b"}, {"name": "c", "request": "{{baseUrl}}/c"}]"#,
            variables: #"[{"key": "baseUrl", "value": "https://api.example.com/v1"}]"#)
        XCTAssertEqual(result.baseURL, "{{baseUrl}}")
        XCTAssertEqual(result.notes, [])
        let undefined = try read(#"[{"name": "a", "request": "{{host}}/a"}]"#)
        XCTAssertEqual(
            undefined.notes,
            [
                "the base URL's variable 'host' is defined neither in the collection nor in an environment file: set host to call"
            ])
        XCTAssertTrue(result.text.contains(#"baseURL: "${baseUrl}""#), result.text)
        XCTAssertTrue(result.text.contains("  b:\n    baseURL: \"https://files.example.com\""), result.text)
        XCTAssertTrue(result.text.contains(#"variables: {baseUrl: "https://api.example.com/v1"}"#), result.text)
        let literal = try read(
            #"[{"name": "a", "request": "http://h/"}]"#,
            variables: #"[{"key": "v", "value": "{{{x}}} ${HOME} {{a}}"}]"#)
        XCTAssertTrue(literal.text.contains(#"variables: {v: "{{{{{{x}}}}}} $${HOME}} ${a:-}"}"#), literal.text)
    }

    func testLiteralCredentialsAreNeverWritten() throws {
        let result = try read(
            #"[{"name": "a", "request": {"url": "http://h/", "header": [{"key": "X-Api-Key", "value": "k-literal"}, {"key": "Authorization", "value": "Bearer {{tok}}"}]}}]"#,
            auth: #"{"type": "bearer", "bearer": [{"key": "token", "value": "literal-token"}]}"#)
        XCTAssertFalse(result.text.contains("k-literal") || result.text.contains("literal-token"), result.text)
        XCTAssertTrue(result.text.contains(#"X-Api-Key: "${secret:MOYA_T_X_API_KEY:-}""#), result.text)
        XCTAssertTrue(result.text.contains(#"Authorization: "Bearer ${secret:tok:-}""#), result.text)
        XCTAssertTrue(result.text.contains(#"token: "${secret:MOYA_T_TOKEN}""#), result.text)
    }

    func testUnmappedAuthAndBodyModesAreNoted() throws {
        let result = try read(
            #"[{"name": "a", "request": {"method": "POST", "url": "http://h/", "auth": {"type": "digest"}, "body": {"mode": "weird"}}}]"#,
            auth: #"{"type": "bearer", "bearer": [{"key": "token", "value": "{{t}}"}]}"#)
        XCTAssertTrue(result.text.contains("    auth: none\n"), "not the collection's bearer:\n\(result.text)")
        XCTAssertTrue(
            result.notes.contains("a: the body mode 'weird' is not mapped: the case sends no body"), "\(result.notes)")
        let empty = try read(
            #"[{"name": "a", "request": {"method": "POST", "url": "http://h/", "body": {"mode": "formdata", "formdata": [{"key": "k", "disabled": true}]}}}]"#
        )
        XCTAssertEqual(empty.notes, ["a: the form has no enabled fields: the case sends no body"])
        XCTAssertTrue(
            result.notes.contains(
                "the digest auth at $.item[0].request.auth is not mapped: cases using it send no credentials"),
            "\(result.notes)")
    }

    func testOAuth2WithoutClientCredentialsIsNotMapped() throws {
        for oauth2 in [
            #"[{"key": "accessTokenUrl", "value": "https://a/t"}]"#,
            #"[{"key": "grant_type", "value": "client_credentials"}]"#,
            #"[{"key": "grant_type", "value": "password"}, {"key": "accessTokenUrl", "value": "https://a/t"}]"#
        ] {
            let result = try read(
                #"[{"name": "a", "request": "http://h/"}]"#, auth: #"{"type": "oauth2", "oauth2": \#(oauth2)}"#)
            XCTAssertFalse(result.text.contains("oauth2"), result.text)
            XCTAssertTrue(
                result.notes.contains { $0.hasSuffix("at $.auth is not mapped: cases using it send no credentials") })
        }
    }

    func testRepeatedNamesAndCredentialParametersNeverBreakOrLeak() throws {
        let result = try read(
            #"""
            [{"name": "a", "request": {"url": "http://h/x?tag=1&tag=2&access_token=q-literal",
               "header": [{"key": "X-A", "value": "1"}, {"key": "x-a", "value": "2"}, {"key": "", "value": ""},
                          {"key": "Authorization", "value": "Bearer h-literal"}]},
              "response": [{"code": 200, "header": [{"key": "Content-Type", "value": "text/plain"}],
                            "body": "h-literal b-literal q"}]},
             {"name": "b", "request": {"method": "POST", "url": "http://h/f",
               "body": {"mode": "urlencoded", "urlencoded": [{"key": "k", "value": "1"}, {"key": "k", "value": "2"},
                                                             {"key": "password", "value": "f-literal"}]}}},
             {"name": "c", "request": {"method": "POST", "url": "http://h/j",
               "body": {"mode": "raw", "raw": "{\"user\": \"ada\", \"password\": \"j-literal\"}", "options": {"raw": {"language": "json"}}}}},
             {"name": "d", "request": {"method": "POST", "url": "http://h/m",
               "body": {"mode": "formdata", "formdata": [{"key": "api_key", "value": "m-literal"}]}}}]
            """#,
            auth: #"{"type": "bearer", "bearer": [{"key": "token", "value": "b-literal"}]}"#)
        for literal in ["q-literal", "h-literal", "b-literal", "f-literal", "j-literal", "m-literal"] {
            XCTAssertFalse(result.text.contains(literal), "\(literal):\n\(result.text)")
        }
        XCTAssertTrue(
            result.text.contains(#"headers: {X-A: "1, 2", Authorization: "${secret:MOYA_T_AUTHORIZATION:-}"}"#),
            result.text)
        XCTAssertTrue(
            result.text.contains(
                #"parameters: {tag: ["1", "2"], access_token: "{access_token}"}\#n      encoding: url\#n      arrayEncoding: noBrackets"#
            ),
            result.text)
        XCTAssertTrue(result.text.contains(#"text: "<redacted> <redacted> q""#), result.text)
        XCTAssertTrue(result.text.contains(#"parameters: {k: ["1", "2"], password: "{password}"}"#), result.text)
        XCTAssertTrue(result.text.contains(#"task: {json: {user: ada, password: "{password}"}}"#), result.text)
        XCTAssertTrue(result.text.contains(#"task: {multipart: [{name: api_key, value: "{api_key}"}]}"#), result.text)
        XCTAssertTrue(
            result.notes.contains(
                "a: the value access_token is a credential (the parameter access_token): it is not written; give it when calling"
            ),
            "\(result.notes)")
    }
}
