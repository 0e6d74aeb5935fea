import CLITestSupport
import Foundation
import XCTest

@testable import TestServers

/// `moya-cli import postman`: a v2.1 collection (folders, variables, an environment file, every
/// body mode and auth, examples, scripts) becomes a target file whose cases send what Postman
/// would to the loopback server; v2.0's shapes read the same; hostile collections exit 65.
final class ImportPostmanTests: XCTestCase {
    var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
    }

    private func importPostman(_ arguments: [String]) throws -> CLIResult {
        try CLIRunner.run(["import", "postman"] + arguments, currentDirectory: folder.url)
    }

    /// A v2.1 collection written from the schema's rules: auth params as `[{key, value}]`, URLs
    /// as objects or strings, `disabled` entries.
    static func collection(base: String) -> String {
        #"""
        {
          "info": {"name": "Shop API", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
          "auth": {"type": "bearer", "bearer": [{"key": "token", "value": "{{apiToken}}", "type": "string"}]},
          "variable": [
            {"key": "baseUrl", "value": "\#(base)/anything/api"},
            {"key": "apiToken", "value": "s3cr3t-token-value"},
            {"key": "userId", "value": "42"},
            {"key": "tenant-id", "value": "acme"},
            {"key": "loopA", "value": "{{loopB}}"},
            {"key": "loopB", "value": "x{{loopA}}"}
          ],
          "event": [{"listen": "prerequest", "script": {"exec": ["console.log(1)"]}}],
          "item": [
            {"name": "Users", "item": [
              {"name": "Get user", "event": [{"listen": "test", "script": {"exec": ["pm.test()"]}}],
               "request": {"method": "GET", "description": "Fetch one user",
                 "header": [{"key": "X-Tenant", "value": "{{tenant-id}}"}, {"key": "X-Off", "value": "no", "disabled": true}],
                 "url": {"raw": "{{baseUrl}}/users/:id?verbose=true&skip=1", "host": ["{{baseUrl}}"], "path": ["users", ":id"],
                   "query": [{"key": "verbose", "value": "true"}, {"key": "skip", "value": "1", "disabled": true}],
                   "variable": [{"key": "id", "value": "{{userId}}"}]}},
               "response": [
                 {"name": "OK", "code": 200, "header": [{"key": "Content-Type", "value": "application/json"}],
                  "body": "{\"id\": 42, \"token\": \"s3cr3t-token-value\"}"},
                 {"name": "Not found", "code": 404, "header": [{"key": "Content-Type", "value": "text/plain"}], "body": "no such user"}
               ]},
              {"name": "Create user", "request": {"method": "POST",
                 "header": [{"key": "Content-Type", "value": "application/json"}],
                 "body": {"mode": "raw", "raw": "{\"name\": \"{{userName}}\", \"tenant\": \"t\"}", "options": {"raw": {"language": "json"}}},
                 "url": "{{baseUrl}}/users"}}
            ]},
            {"name": "Login form", "request": {"method": "POST",
               "auth": {"type": "basic", "basic": [{"key": "username", "value": "ada"}, {"key": "password", "value": "pw-literal"}]},
               "body": {"mode": "urlencoded", "urlencoded": [{"key": "user", "value": "ada lovelace"}, {"key": "off", "value": "x", "disabled": true}]},
               "url": "{{baseUrl}}/login"}},
            {"name": "Upload", "request": {"method": "POST", "auth": {"type": "noauth"},
               "body": {"mode": "formdata", "formdata": [{"key": "note", "value": "hi", "type": "text"}, {"key": "doc", "type": "file", "src": "/x.txt"}]},
               "url": "{{baseUrl}}/upload"}},
            {"name": "Put file", "request": {"method": "PUT",
               "auth": {"type": "apikey", "apikey": [{"key": "key", "value": "X-Api-Key"}, {"key": "value", "value": "{{apiKey}}"}, {"key": "in", "value": "header"}]},
               "body": {"mode": "file", "file": {"src": "/x.bin"}}, "url": "{{baseUrl}}/files"}},
            {"name": "Graph", "request": {"method": "POST",
               "auth": {"type": "oauth2", "oauth2": [{"key": "grant_type", "value": "client_credentials"}, {"key": "accessTokenUrl", "value": "\#(base)/oauth/token"}, {"key": "clientId", "value": "moya-client"}, {"key": "clientSecret", "value": "{{clientSecret}}"}, {"key": "scope", "value": "read"}]},
               "body": {"mode": "graphql", "graphql": {"query": "query { me { id } }", "variables": "{\"a\": 1}"}}, "url": "{{baseUrl}}/graphql"}},
            {"name": "Raw text", "request": {"method": "PATCH", "header": [{"key": "Content-Type", "value": "text/plain"}],
               "body": {"mode": "raw", "raw": "hello {{userId}}"}, "url": "{{baseUrl}}/text"}},
            {"name": "Other host", "request": {"method": "DELETE", "url": "\#(base)/anything/things/{{thing}}"}},
            {"name": "Get user", "request": {"method": "GET", "url": "{{baseUrl}}/again"}}
          ]
        }
        """#
    }

    func testCasesSendWhatPostmanWouldSend() throws {
        let server = try HTTPTestServer()
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        try folder.write("shop.json", Self.collection(base: base))
        try folder.write(
            "env.json",
            #"{"name": "Staging Env", "values": [{"key": "userId", "value": "7", "enabled": true}, {"key": "password", "value": "envpw", "type": "secret"}]}"#
        )
        try folder.write("doc.txt", "document")
        let imported = try importPostman(["shop.json", "--environment", "env.json"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertEqual(
            imported.stderr,
            """
            import: wrote targets/shop-api.yaml: API 'shop-api', 9 cases
            import: the variable 'loopA' refers to itself through others: it is never expanded
            import: the variable 'loopB' refers to itself through others: it is never expanded
            import: 2 pre-request/test scripts skipped: a case runs no scripts
            import: the variable 'tenant-id' is ${tenant_id}
            import: the variable 'apiToken' is a credential: not written; set apiToken to call
            import: the variable 'password' is a credential: not written; set password to call
            import: the bearer auth's token is read from ${secret:apiToken}; set apiToken to call it
            import: the basic auth's password (a literal in the collection, not written) is read from ${secret:MOYA_SHOP_API_PASSWORD}; set MOYA_SHOP_API_PASSWORD to call it
            import: the apikey auth's value is read from ${secret:apiKey}; set apiKey to call it
            import: the oauth2 auth's clientSecret is read from ${secret:clientSecret}; set clientSecret to call it
            import: next: moya-cli trust targets/shop-api.yaml (or MOYA_ALLOW_ENV=apiToken:MOYA_SHOP_API_PASSWORD:apiKey:clientSecret); moya-cli list shop-api; moya-cli check shop-api

            """)
        let file = try String(contentsOf: folder.url.appendingPathComponent("targets/shop-api.yaml"), encoding: .utf8)
        for secret in ["s3cr3t-token-value", "pw-literal", "envpw"] {
            XCTAssertFalse(file.contains(secret), "\(secret) written:\n\(file)")
        }
        XCTAssertTrue(file.contains("notFound: {status: 404"), file)

        let environment = [
            "apiToken": "live-token", "MOYA_SHOP_API_PASSWORD": "pw", "apiKey": "k1",
            "clientSecret": OAuthTestAuthority.clientSecret,
            "XDG_CACHE_HOME": folder.url.appendingPathComponent("cache").path
        ]
        let calls: [[String]] = [
            ["usersGetUser"], ["usersCreateUser", "ada"], ["loginForm"], ["upload", "doc.txt"], ["putFile", "doc.txt"],
            ["graph"], ["rawText"], ["otherHost", "t1"], ["getUser"], ["--env", "staging-env", "usersGetUser"]
        ]
        for arguments in calls {
            let called = try CLIRunner.run(
                ["call", "shop-api"] + arguments, environment: environment, currentDirectory: folder.url)
            XCTAssertEqual(called.status, 0, "\(arguments): \(called.stderr)")
        }
        // The environment file's userId (7) wins over the collection's (42), as in Postman.
        let received = server.receivedRequests.filter { !$0.path.hasPrefix("/oauth/") }
        XCTAssertEqual(
            received.map { "\($0.method) \($0.path)" },
            [
                "GET /anything/api/users/7", "POST /anything/api/users", "POST /anything/api/login",
                "POST /anything/api/upload", "PUT /anything/api/files", "POST /anything/api/graphql",
                "PATCH /anything/api/text", "DELETE /anything/things/t1", "GET /anything/api/again",
                "GET /anything/api/users/7"
            ])
        XCTAssertEqual(received[0].queryItems.map { "\($0.name)=\($0.value)" }, ["verbose=true"], "disabled skipped")
        XCTAssertEqual(received[0].value(of: "X-Tenant"), "acme")
        XCTAssertNil(received[0].value(of: "X-Off"))
        XCTAssertEqual(received[0].value(of: "Authorization"), "Bearer live-token")
        XCTAssertEqual(String(decoding: received[1].body, as: UTF8.self), #"{"name":"ada","tenant":"t"}"#)
        XCTAssertEqual(String(decoding: received[2].body, as: UTF8.self), "user=ada%20lovelace")
        XCTAssertEqual(received[2].value(of: "Authorization"), "Basic " + Data("ada:pw".utf8).base64EncodedString())
        let multipart = String(decoding: received[3].body, as: UTF8.self)
        XCTAssertTrue(multipart.contains("name=\"note\"\r\n\r\nhi\r\n") && multipart.contains("document"), multipart)
        XCTAssertNil(received[3].value(of: "Authorization"), "noauth")
        XCTAssertEqual(String(decoding: received[4].body, as: UTF8.self), "document")
        XCTAssertEqual(received[4].value(of: "X-Api-Key"), "k1")
        XCTAssertEqual(
            String(decoding: received[5].body, as: UTF8.self), #"{"query":"query { me { id } }","variables":{"a":1}}"#)
        XCTAssertTrue(received[5].value(of: "Authorization")?.hasPrefix("Bearer ") ?? false)
        XCTAssertEqual(String(decoding: received[6].body, as: UTF8.self), "hello 7")
        XCTAssertEqual(received[6].value(of: "Content-Type"), "text/plain")
        XCTAssertEqual(received[7].value(of: "Authorization"), "Bearer live-token", "inherits the collection's")
        XCTAssertEqual(
            received[9].value(of: "X-Tenant"), "acme", "the collection's, in the environment file's environment")

        let stubbed = try CLIRunner.run(
            ["call", "shop-api", "usersGetUser", "--stub", "--sample", "notFound"], environment: environment,
            currentDirectory: folder.url)
        XCTAssertEqual(stubbed.stdout, "no such user")
        let again = try importPostman(["shop.json"])
        XCTAssertEqual(again.status, 64)
        XCTAssertEqual(again.stderr, "moya-cli: error: targets/shop-api.yaml exists; give --force to replace it\n")
        XCTAssertEqual(try importPostman(["shop.json", "--force"]).status, 0)
    }
}

extension ImportPostmanTests {
    /// v2.0: auth parameters as objects, a request given as its URL, a URL as parts, headers as lines.
    func testOnlyKeepsTheRequestsItNames() throws {
        try folder.write("shop.json", Self.collection(base: "http://127.0.0.1:9"))
        let cases = { (arguments: [String]) throws -> [String] in
            let result = try self.importPostman(["shop.json", "-o", "-"] + arguments)
            XCTAssertEqual(result.status, 0, result.stderr)
            let cases = result.stdout.components(separatedBy: "\ncases:\n").last ?? ""
            return cases.split(separator: "\n").filter {
                $0.hasPrefix("  ") && !$0.hasPrefix("   ") && $0.hasSuffix(":")
            }
            .map { String($0.dropFirst(2).dropLast()) }
        }
        XCTAssertEqual(try cases(["--only", "Users"]), ["usersGetUser", "usersCreateUser"], "a folder")
        XCTAssertEqual(try cases(["--only", "Users/Create user"]), ["usersCreateUser"], "a Folder/Request path")
        XCTAssertEqual(
            try cases(["--only", "Login form", "--only", "upload"]), ["loginForm", "upload"], "a request, a case name")
        let none = try importPostman(["shop.json", "-o", "-", "--only", "Nothing\u{1B}[2J"])
        XCTAssertEqual(none.status, 65)
        XCTAssertEqual(none.stdout, "")
        XCTAssertEqual(none.stderr, "moya-cli: error: shop.json: --only Nothing\\e[2J names no folder or request\n")
    }

    func testVersion2Point0Shapes() throws {
        let server = try HTTPTestServer()
        defer { server.stop() }
        try folder.write(
            "old.json",
            #"""
            {"info": {"name": "Old", "schema": "https://schema.getpostman.com/json/collection/v2.0.0/collection.json"},
             "auth": {"type": "basic", "basic": {"username": "{{user}}", "password": "{{pass}}"}},
             "item": [
              {"name": "Ping", "request": "http://127.0.0.1:\#(server.port)/anything/ping"},
              {"name": "Send", "request": {"method": "POST",
                "url": {"protocol": "http", "host": ["127", "0", "0", "1"], "port": "\#(server.port)", "path": ["anything", "send"],
                        "query": [{"key": "q", "value": "1"}]},
                "header": "X-One: 1\nX-Two: two",
                "auth": {"type": "apikey", "apikey": {"key": "api_key", "value": "{{k}}", "in": "query"}},
                "body": {"mode": "raw", "raw": "{\"a\": {{n}}}", "options": {"raw": {"language": "json"}}}}}
             ]}
            """#)
        let imported = try importPostman(["old.json"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let environment = ["user": "ada", "pass": "pw", "k": "key1"]
        for arguments in [["ping"], ["send", "5"]] {
            let called = try CLIRunner.run(
                ["call", "old"] + arguments, environment: environment, currentDirectory: folder.url)
            XCTAssertEqual(called.status, 0, "\(arguments): \(called.stderr)")
        }
        let received = server.receivedRequests
        XCTAssertEqual(received.map { "\($0.method) \($0.path)" }, ["GET /anything/ping", "POST /anything/send"])
        XCTAssertEqual(received[0].value(of: "Authorization"), "Basic " + Data("ada:pw".utf8).base64EncodedString())
        XCTAssertEqual(received[1].queryItems.map { "\($0.name)=\($0.value)" }, ["api_key=key1", "q=1"])
        XCTAssertNil(received[1].value(of: "Authorization"), "the API key, not the collection's basic")
        XCTAssertEqual(received[1].value(of: "X-Two"), "two")
        XCTAssertEqual(
            String(decoding: received[1].body, as: UTF8.self), #"{"a": 5}"#, "not JSON until given: sent as text")
        XCTAssertEqual(received[1].value(of: "Content-Type"), "application/json")
    }

    /// What a collection may not do exits 65 with the JSON path, writes nothing and passes no
    /// terminal escape; secrets are never written.
    func testHostileCollectionsExit65WithThePlace() throws {
        let request = { (json: String) in #"{"info": {"name": "x"}, "item": [{"name": "a", "request": \#(json)}]}"# }
        for (collection, expected) in [
            ("nope", "h.json:1:2: the collection is not JSON"),
            (
                #"{"info": {"name": "x"}, "item": 3}"#,
                "h.json: not a Postman collection: no info object and item list (at $.item)"
            ),
            (request(#"{"url": 5}"#), "h.json: the URL is neither a string nor an object (at $.item[0].request.url)"),
            (
                request(#"{"url": "http://h/a\r\nX: y"}"#),
                "h.json: the URL holds control characters (at $.item[0].request.url)"
            ),
            (
                request(#"{"url": "http://h/", "header": [{"key": "X\u001b[31m", "value": "1"}]}"#),
                "h.json: the header name 'X\\e[31m' is not a header name (at $.item[0].request.header[0])"
            ),
            (
                request(#"{"url": "http://h/", "header": [{"key": "X", "value": "1\r\nEvil: 1"}]}"#),
                "h.json: the header X's value holds control characters (at $.item[0].request.header[0])"
            ),
            (request(#"{"url": "ftp://h/"}"#), "h.json: the URL 'ftp://h' is not http or https"),
            (
                request(#"{"method": "SEND IT", "url": "http://h/"}"#),
                "h.json: invalid method 'SEND IT'; a method is a name of letters, digits and !#$%&'*+-.^_`|~ (RFC 9110) (at $.item[0].request.method)"
            ),
            (request(#"{"url": "{{a}} b/x"}"#), "h.json: the URL's host holds a space (at $.item[0].request.url)"),
            (
                request(
                    #"{"url": "http://h/", "auth": {"type": "oauth2", "oauth2": [{"key": "grant_type", "value": "client_credentials"}, {"key": "accessTokenUrl", "value": "true"}]}}"#
                ),
                "h.json: the oauth2 access token URL 'true' is not an http(s) URL (at $.item[0].request.auth.oauth2)"
            ),
            (
                request(
                    #"{"url": "http://h/", "auth": {"type": "oauth2", "oauth2": [{"key": "grant_type", "value": "client_credentials"}, {"key": "accessTokenUrl", "value": "https://a/t"}, {"key": "scope", "value": "a\u001b[31m"}]}}"#
                ),
                "h.json: the oauth2 scope 'a\\e[31m' is not printable ASCII without '\"' or '\\' (at $.item[0].request.auth.oauth2)"
            ),
            (
                request(
                    #"{"method": "POST", "url": "http://h/", "body": {"mode": "formdata", "formdata": [{"key": "a\nb"}]}}"#
                ),
                "h.json: the part name 'a\\nb' holds control characters (at $.item[0].request.body.formdata)"
            ),
            (
                #"{"info": {"name": "x"}, "auth": {"type": 3}, "item": [{"name": "a", "request": "http://h/"}]}"#,
                "h.json: not an auth type (at $.auth.type)"
            ),
            (
                #"{"info": {"name": "x", "schema": "https://schema.getpostman.com/json/collection/v1.0.0/collection.json"}, "item": []}"#,
                "h.json: the collection's schema"
            ),
            (
                String(repeating: #"{"name": "f", "item": ["#, count: 70).wrappedAsCollection(depth: 70),
                "h.json: folders nest deeper than 64 (at $.item[0].item[0]"
            )
        ] {
            try folder.write("h.json", collection)
            let result = try importPostman(["h.json"])
            XCTAssertEqual(result.status, 65, collection)
            XCTAssertTrue(result.stderr.hasPrefix("moya-cli: error: " + expected), result.stderr)
            XCTAssertFalse(result.stderr.contains("\u{1B}"))
            XCTAssertFalse(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("targets").path))
        }

        let big = folder.url.appendingPathComponent("big.json")
        XCTAssertTrue(FileManager.default.createFile(atPath: big.path, contents: nil))
        let handle = try FileHandle(forWritingTo: big)
        try handle.truncate(atOffset: 100 << 20)
        try handle.close()
        let tooBig = try importPostman(["big.json"])
        XCTAssertEqual(tooBig.status, 65)
        XCTAssertEqual(
            tooBig.stderr,
            "moya-cli: error: big.json is 104857600 bytes, larger than 64 MiB, the most Postman collections read\n")
        let bigEnvironment = try importPostman(["h.json", "--environment", "big.json"])
        XCTAssertEqual(bigEnvironment.status, 65)
        XCTAssertEqual(
            bigEnvironment.stderr,
            "moya-cli: error: big.json is 104857600 bytes, larger than 64 MiB, the most Postman environments read\n")

        let many =
            #"{"info": {"name": "x"}, "item": ["#
            + Array(repeating: #"{"name": "a", "request": "http://h/"}"#, count: 100_001).joined(separator: ",") + "]}"
        try folder.write("many.json", many)
        let tooMany = try importPostman(["many.json"])
        XCTAssertEqual(tooMany.status, 65)
        XCTAssertEqual(
            tooMany.stderr,
            "moya-cli: error: many.json: the collection has more than 100000 requests (at $.item[100000])\n")

        // Escapes in names and descriptions; a `type: secret` variable with a plain name; a cycle.
        try folder.write(
            "odd.json",
            #"""
            {"info": {"name": "x\u001b]0;pwn\u0007"},
             "variable": [{"key": "plain", "value": "hidden-value", "type": "secret"}, {"key": "b", "value": "{{c}}"},
                          {"key": "x-y", "value": "1"}, {"key": "x_y", "value": "2"},
                          {"key": "c", "value": "{{b}}"}],
             "item": [{"name": "a\u001b[2J", "request": {"url": "http://h/{{plain}}/{{b}}/a b", "description": "desc \u001b[31m red",
                       "header": [{"key": "X-P", "value": "{{plain}}"}]}}]}
            """#)
        let odd = try CLIRunner.run(
            ["import", "postman", "-", "-o", "-"], currentDirectory: folder.url,
            stdin: try Data(contentsOf: folder.url.appendingPathComponent("odd.json")))
        XCTAssertEqual(odd.status, 0, odd.stderr)
        XCTAssertFalse(
            odd.stdout.contains("hidden-value") || odd.stdout.contains("\u{1B}") || odd.stdout.contains("\\x1B"))
        XCTAssertFalse(odd.stderr.contains("\u{1B}"))
        XCTAssertTrue(odd.stdout.contains(#"headers: {X-P: "${secret:plain:-}"}"#), odd.stdout)
        XCTAssertTrue(odd.stdout.contains(#"variables: {x_y: "2"}"#), "one name, the later value:\n\(odd.stdout)")
        XCTAssertTrue(odd.stdout.contains(#"path: "/{plain}/{b}/a%20b""#), odd.stdout)
        XCTAssertTrue(odd.stderr.contains("the variable 'b' refers to itself through others"), odd.stderr)
        XCTAssertTrue(odd.stderr.contains("the value plain is a credential ({{plain}}): it is not written"), odd.stderr)
    }
}

extension String {
    /// `self` (`count` opened folders) closed and wrapped as a collection holding one request.
    fileprivate func wrappedAsCollection(depth: Int) -> String {
        #"{"info": {"name": "x"}, "item": ["# + self + #"{"name": "a", "request": "http://h/"}"#
            + String(repeating: "]}", count: depth) + "]}"
    }
}
