/// Vectors of the AWS Signature Version 4 test suite (as published with awslabs/aws-c-auth,
/// tests/aws-signing-test-suite/v4/*/header-signed-request.txt), written out here: the request as
/// the suite gives it (its path as the request line has it), the headers it signs besides `host`
/// and `x-amz-date`, and the `Authorization` it expects. Every one is signed at 20150830T123600Z
/// with key AKIDEXAMPLE / wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY, region us-east-1, service `service`.
struct SigV4Vector {
    var name: String
    var method: String
    /// After `https://example.amazonaws.com`.
    var pathAndQuery: String
    var headers: [(name: String, value: String)] = []
    var sessionToken: String? = nil
    var signedHeaders: String = "host;x-amz-date"
    var signature: String

    static let secondsAt20150830T123600Z = 1_440_938_160
    static let accessKey = "AKIDEXAMPLE"
    static let secretKey = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
    /// SHA-256 of nothing: every vector's body is empty.
    static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    static let all: [SigV4Vector] = [
        SigV4Vector(
            name: "get-vanilla", method: "GET", pathAndQuery: "/",
            signature: "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"),
        SigV4Vector(
            name: "post-vanilla", method: "POST", pathAndQuery: "/",
            signature: "5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b"),
        SigV4Vector(
            name: "get-vanilla-query-order-key-case", method: "GET", pathAndQuery: "/?Param2=value2&Param1=value1",
            signature: "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500"),
        SigV4Vector(
            name: "get-vanilla-query-unreserved", method: "GET",
            pathAndQuery: "/?-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                + "=-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
            signature: "9c3e54bfcdf0b19771a7f523ee5669cdf59bc7cc0884027167c21bb143a40197"),
        SigV4Vector(
            name: "get-vanilla-empty-query-key", method: "GET", pathAndQuery: "/?Param1=value1",
            signature: "a67d582fa61cc504c4bae71f336f98b97f1ea3c7a6bfe1b6e45aec72011b9aeb"),
        SigV4Vector(
            name: "get-header-value-trim", method: "GET", pathAndQuery: "/",
            headers: [("My-Header1", " value1"), ("My-Header2", " \"a   b   c\"")],
            signedHeaders: "host;my-header1;my-header2;x-amz-date",
            signature: "acc3ed3afb60bb290fc8d2dd0098b9911fcaa05412b367055dee359757a9c736"),
        SigV4Vector(
            name: "get-vanilla-with-session-token", method: "GET", pathAndQuery: "/",
            sessionToken: "6e86291e8372ff2a2260956d9b8aae1d763fbf315fa00fa31553b73ebf194267",
            signedHeaders: "host;x-amz-date;x-amz-security-token",
            signature: "07ec1639c89043aa0e3e2de82b96708f198cceab042d4a97044c66dd9f74e7f8"),
        SigV4Vector(
            name: "get-utf8", method: "GET", pathAndQuery: "/ሴ",
            signature: "8318018e0b0f223aa2bbf98705b62bb787dc9c0e678f255a891fd03141be5d85"),
        SigV4Vector(
            name: "get-space-normalized", method: "GET", pathAndQuery: "/example space/",
            signature: "652487583200325589f1fba4c7e578f72c47cb61beeca81406b39ddec1366741"),
        SigV4Vector(
            name: "get-relative-normalized", method: "GET", pathAndQuery: "/example/..",
            signature: "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"),
        SigV4Vector(
            name: "get-relative-relative-normalized", method: "GET", pathAndQuery: "/example1/example2/../..",
            signature: "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"),
        SigV4Vector(
            name: "get-slash-dot-slash-normalized", method: "GET", pathAndQuery: "/./",
            signature: "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"),
        SigV4Vector(
            name: "get-slash-normalized", method: "GET", pathAndQuery: "//",
            signature: "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"),
        SigV4Vector(
            name: "get-slash-pointless-dot-normalized", method: "GET", pathAndQuery: "/./example",
            signature: "ef75d96142cf21edca26f06005da7988e4f8dc83a165a80865db7089db637ec5"),
        SigV4Vector(
            name: "get-slashes-normalized", method: "GET", pathAndQuery: "//example//",
            signature: "9a624bd73a37c9a373b5312afbebe7a714a789de108f0bdfe846570885f57e84")
    ]
}
