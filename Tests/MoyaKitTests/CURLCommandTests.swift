import Foundation
import MoyaKit
import XCTest

final class CURLCommandTests: XCTestCase {
    private func request(_ method: String = "GET", url: String = "https://example.com/items?q=a%20b") -> URLRequest {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        return request
    }

    func testGETLeavesOutTheMethodAndQuotesTheURL() {
        var get = request()
        get.setValue("application/json", forHTTPHeaderField: "Accept")
        XCTAssertEqual(
            CURLCommand(request: get).rendered(),
            "curl --compressed -H 'Accept: application/json' 'https://example.com/items?q=a%20b'")
        XCTAssertEqual(
            CURLCommand(request: request("HEAD")).rendered(),
            "curl --head --compressed 'https://example.com/items?q=a%20b'")
        XCTAssertEqual(
            CURLCommand(request: request("DELETE")).arguments,
            ["curl", "-X", "DELETE", "--compressed", "https://example.com/items?q=a%20b"])
    }

    /// curl picks the method from the body options (`--data*`, `-F`: POST; `-T`: PUT): `-X` is
    /// written whenever that differs from the request's method, so a GET with a body stays a GET.
    func testMethodIsWrittenWheneverCurlWouldPickAnother() {
        var get = request()
        get.httpBody = Data("hello".utf8)
        XCTAssertEqual(
            CURLCommand(request: get).arguments,
            ["curl", "-X", "GET", "--compressed", "--data-binary", "hello", "https://example.com/items?q=a%20b"])
        get.httpBody = Data()
        XCTAssertEqual(CURLCommand(request: get).arguments.prefix(3), ["curl", "-X", "GET"], "an empty body is a body")
        get.httpBody = nil
        get.bodyFileURL = URL(fileURLWithPath: "/tmp/f")
        XCTAssertEqual(CURLCommand(request: get).arguments.prefix(3), ["curl", "-X", "GET"], "-T alone would PUT")
        get.bodyFileURL = nil
        get.multipartParts = [MultipartFormBodyPart(provider: .data(Data("v".utf8)), name: "n")]
        XCTAssertEqual(CURLCommand(request: get).arguments.prefix(3), ["curl", "-X", "GET"], "-F alone would POST")

        var head = request("HEAD")
        head.httpBody = Data("ignored".utf8)
        XCTAssertEqual(
            CURLCommand(request: head).rendered(), "curl --head --compressed 'https://example.com/items?q=a%20b'",
            "the transport sends a HEAD without its body, and curl refuses --head with --data")
        var options = request("OPTIONS")
        options.httpBody = Data("x".utf8)
        XCTAssertEqual(CURLCommand(request: options).arguments.prefix(3), ["curl", "-X", "OPTIONS"])
        var put = request("PUT")
        put.bodyFileURL = URL(fileURLWithPath: "/tmp/f")
        XCTAssertFalse(CURLCommand(request: put).arguments.contains("-X"), "-T puts")
        var post = request("POST")
        post.httpBody = Data("x".utf8)
        XCTAssertFalse(
            CURLCommand(request: post).arguments.contains("-X"),
            "left to curl, so a 303 turns it into a GET as in the transport")
    }

    func testBodyIsShellQuoted() {
        var post = request("POST", url: "https://example.com/items")
        post.setValue("text/plain", forHTTPHeaderField: "Content-Type")
        post.httpBody = Data("it's $HOME `x` \"q\"\nline".utf8)
        XCTAssertEqual(
            CURLCommand(request: post).rendered(),
            "curl --compressed -H 'Content-Type: text/plain' --data-binary 'it'\\''s $HOME `x` \"q\"\nline' 'https://example.com/items'"
        )
        XCTAssertEqual(
            CURLCommand(request: post).rendered(multiline: true),
            """
            curl \\
              --compressed \\
              -H 'Content-Type: text/plain' \\
              --data-binary 'it'\\''s $HOME `x` "q"
            line' \\
              'https://example.com/items'
            """)
    }

    func testBinaryBodyIsPipedThroughPrintf() {
        var post = request("PUT", url: "https://example.com/blob")
        post.httpBody = Data([0x00, 0x41, 0xFF])
        XCTAssertEqual(
            CURLCommand(request: post).rendered(),
            #"printf '%b' '\0000\0101\0377' | curl -X PUT --compressed --data-binary '@-' 'https://example.com/blob'"#)
        XCTAssertEqual(CURLCommand(request: post).stdinBody, Data([0x00, 0x41, 0xFF]))
    }

    func testUploadsAndMultipart() {
        var upload = request("POST", url: "https://example.com/upload")
        upload.bodyFileURL = URL(fileURLWithPath: "/tmp/my file.bin")
        XCTAssertEqual(
            CURLCommand(request: upload).rendered(),
            "curl --compressed -H 'Expect:' --data-binary '@/tmp/my file.bin' 'https://example.com/upload'")
        var put = request("PUT", url: "https://example.com/upload")
        put.bodyFileURL = URL(fileURLWithPath: "/tmp/my file.bin")
        XCTAssertEqual(
            CURLCommand(request: put).rendered(),
            "curl --compressed -H 'Expect:' -T '/tmp/my file.bin' 'https://example.com/upload'")
        put.url = URL(string: "https://example.com/folder/")
        put.httpMethod = "PATCH"
        XCTAssertEqual(
            CURLCommand(request: put).rendered(),
            "curl -X PATCH --compressed -H 'Expect:' -H 'Content-Type:' --data-binary '@/tmp/my file.bin' 'https://example.com/folder/'",
            "-T would append the file name to a URL ending in /")

        var form = request("POST", url: "https://example.com/form")
        form.multipartParts = [
            MultipartFormBodyPart(provider: .data(Data("hello".utf8)), name: "greeting"),
            MultipartFormBodyPart(
                provider: .file(URL(fileURLWithPath: "/tmp/a.png")), name: "image", fileName: "a.png",
                mimeType: "image/png"),
            MultipartFormBodyPart(provider: .data(Data("@not-a-file".utf8)), name: "handle"),
            MultipartFormBodyPart(
                provider: .file(URL(fileURLWithPath: "/tmp/a;b,c.txt")), name: "odd", fileName: "say \"hi\".txt")
        ]
        XCTAssertEqual(
            CURLCommand(request: form).rendered(),
            """
            curl --compressed -H 'Expect:' -F 'greeting=hello' -F 'image=@/tmp/a.png;filename=a.png;type=image/png' -F 'handle="@not-a-file"' \
            -F 'odd=@"/tmp/a;b,c.txt";filename="say \\"hi\\".txt"' 'https://example.com/form'
            """)

        var emptyPost = request("POST", url: "https://example.com/ping")
        emptyPost.setValue("", forHTTPHeaderField: "X-Empty")
        XCTAssertEqual(
            CURLCommand(request: emptyPost).rendered(),
            "curl --compressed -H 'X-Empty;' -H 'Content-Type:' --data-binary '' 'https://example.com/ping'",
            "the transport posts an empty untyped body and sends empty headers")
        var atBody = request("PUT", url: "https://example.com/at")
        atBody.httpBody = Data("@/etc/passwd".utf8)
        XCTAssertEqual(
            CURLCommand(request: atBody).rendered(),
            "curl -X PUT --compressed --data-raw '@/etc/passwd' 'https://example.com/at'")
    }

    func testCommandsMatchWhatMoyaKitSends() {
        var empty = request()
        empty.setValue("", forHTTPHeaderField: "X-Empty")
        XCTAssertEqual(
            CURLCommand(request: empty).rendered(),
            "curl --compressed -H 'X-Empty;' 'https://example.com/items?q=a%20b'")

        XCTAssertEqual(
            CURLCommand(request: request("POST", url: "https://example.com/e")).rendered(),
            "curl --compressed -H 'Content-Type:' --data-binary '' 'https://example.com/e'")

        var put = request("PUT", url: "https://example.com/upload")
        put.bodyFileURL = URL(fileURLWithPath: "/tmp/f.bin")
        XCTAssertEqual(
            CURLCommand(request: put).rendered(),
            "curl --compressed -H 'Expect:' -T '/tmp/f.bin' 'https://example.com/upload'")
        put.setValue("image/png", forHTTPHeaderField: "Content-Type")
        XCTAssertEqual(
            CURLCommand(request: put).rendered(),
            "curl --compressed -H 'Content-Type: image/png' -H 'Expect:' -T '/tmp/f.bin' 'https://example.com/upload'")
    }

    func testSecretsAreRedactedUnlessShown() {
        var secret = request("GET", url: "https://example.com/items?api_key=s%2Bcret&x=1")
        secret.setValue("Bearer abc", forHTTPHeaderField: "Authorization")
        secret.setValue("a=1; b=2", forHTTPHeaderField: "Cookie")
        secret.setValue("k-123", forHTTPHeaderField: "X-Api-Key")
        let redactor = SecretRedactor(secretValues: ["s+cret"])
        XCTAssertEqual(
            CURLCommand(request: secret, redactor: redactor).rendered(),
            "curl --compressed -H 'Authorization: Bearer <redacted>' -H 'Cookie: <redacted>' -H 'X-Api-Key: <redacted>' 'https://example.com/items?api_key=<redacted>&x=1'"
        )
        var shown = redactor
        shown.showsSecrets = true
        XCTAssertEqual(
            CURLCommand(request: secret, redactor: shown).rendered(),
            "curl --compressed -H 'Authorization: Bearer abc' -H 'Cookie: a=1; b=2' -H 'X-Api-Key: k-123' 'https://example.com/items?api_key=s%2Bcret&x=1'"
        )
    }

    func testSessionHeadersComeFirstUnlessOverridden() {
        var get = request()
        get.setValue("mine", forHTTPHeaderField: "User-Agent")
        let command = CURLCommand(request: get, sessionHeaders: ["User-Agent": "session", "Accept-Encoding": "gzip"])
        XCTAssertEqual(
            command.rendered(),
            "curl --compressed -H 'Accept-Encoding: gzip' -H 'User-Agent: mine' 'https://example.com/items?q=a%20b'")
    }
}
