import ContentDigest
import Sending
import TargetSpec
import XCTest

/// The SigV4 signer against the AWS test suite's vectors (`SigV4Vectors.swift`), byte for byte.
final class AWSSigV4SignerTests: XCTestCase {
    func testEveryVectorOfTheSuiteIsSignedAsPublished() {
        for vector in SigV4Vector.all {
            let signer = AWSSigV4Signer(
                credential: AWSSigV4Credential(
                    region: "us-east-1", service: "service", accessKey: SigV4Vector.accessKey,
                    secretKey: SigV4Vector.secretKey, sessionToken: vector.sessionToken))
            let request = AWSSigV4Signer.Request(
                method: vector.method, url: "https://example.amazonaws.com" + vector.pathAndQuery,
                headers: vector.headers, payloadHash: SigV4Vector.emptyPayloadHash)
            let added = signer.signatureHeaders(
                for: request, at: SigV4Vector.secondsAt20150830T123600Z, sendsContentHash: false)
            let expected =
                "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
                + "SignedHeaders=\(vector.signedHeaders), Signature=\(vector.signature)"
            XCTAssertEqual(added.last?.name, "Authorization", vector.name)
            XCTAssertEqual(added.last?.value, expected, vector.name)
            XCTAssertEqual(added.first?.value, "20150830T123600Z", vector.name)
            if let token = vector.sessionToken {
                XCTAssertTrue(added.contains { $0.name == "X-Amz-Security-Token" && $0.value == token }, vector.name)
            }
        }
    }

    /// The suite's get-vanilla canonical request, line for line.
    func testTheCanonicalRequestOfGetVanilla() {
        let signer = AWSSigV4Signer(
            credential: AWSSigV4Credential(
                region: "us-east-1", service: "service", accessKey: SigV4Vector.accessKey,
                secretKey: SigV4Vector.secretKey))
        let canonical = signer.canonicalRequest(
            AWSSigV4Signer.Request(
                method: "GET", url: "https://example.amazonaws.com/",
                headers: [("X-Amz-Date", "20150830T123600Z")], payloadHash: SigV4Vector.emptyPayloadHash))
        XCTAssertEqual(
            canonical.text,
            "GET\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\n"
                + SigV4Vector.emptyPayloadHash)
    }

    /// RFC 4231 test case 2: HMAC-SHA-256 itself.
    func testHMACOfRFC4231() {
        XCTAssertEqual(
            HMACSHA256.hex(
                HMACSHA256.mac(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    /// S3 signs the path as sent; other services encode it once more, and a default port is not
    /// part of the host.
    func testS3SignsThePathAsSentAndOthersEncodeItAgain() {
        let url = "https://bucket.s3.amazonaws.com:443/a%20b/c"
        func canonicalPath(service: String) -> String {
            let signer = AWSSigV4Signer(
                credential: AWSSigV4Credential(region: "eu-west-1", service: service, accessKey: "A", secretKey: "S"))
            let lines = signer.canonicalRequest(
                AWSSigV4Signer.Request(method: "GET", url: url, headers: [], payloadHash: "UNSIGNED-PAYLOAD")
            ).text.split(separator: "\n", omittingEmptySubsequences: false)
            XCTAssertEqual(lines[3], "host:bucket.s3.amazonaws.com")
            return String(lines[1])
        }
        XCTAssertEqual(canonicalPath(service: "s3"), "/a%20b/c")
        XCTAssertEqual(canonicalPath(service: "execute-api"), "/a%2520b/c")
    }
}
