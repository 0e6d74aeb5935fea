/// What moya-cli knows of an HTTP method (RFC 9110, section 9): a target file's `method:` is the
/// name of any method, written in upper case, as `request`'s METHOD is. The nine standard
/// methods and QUERY (safe, idempotent, with a body) have their meaning; any other method, such as
/// `PURGE`, `PROPFIND` or `REPORT`, is taken as neither safe nor idempotent, and may carry a body.
/// Every rule that depends on the method (which `check --live` sends without `--include-unsafe`,
/// which `--retry` repeats, which carry no body) asks here.
package enum MethodSemantics {
    /// The nine methods of RFC 9110 and RFC 5789, as Moya's `Method` names them.
    package static let standard = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE", "CONNECT"]

    /// Safe methods (RFC 9110, 9.2.1, and QUERY's draft): they ask and change nothing.
    package static func isSafe(_ method: String) -> Bool {
        switch method {
        case "GET", "HEAD", "OPTIONS", "TRACE", "QUERY": true
        default: false
        }
    }

    /// Idempotent methods (RFC 9110, 9.2.2): the safe ones, PUT and DELETE.
    package static func isIdempotent(_ method: String) -> Bool {
        isSafe(method) || method == "PUT" || method == "DELETE"
    }

    /// Methods whose requests carry no body in a target file (a GET or HEAD body has no meaning).
    package static func carriesNoBody(_ method: String) -> Bool {
        method == "GET" || method == "HEAD" || method == "TRACE"
    }

    /// Why `text` cannot be a case's method, or `nil` when it can: a method is an RFC 9110 token
    /// with no lower-case letter, and not a near miss of a standard method (`get`, `POTS`, `DELET`).
    package static func problem(with text: String) -> String? {
        if standard.contains(text) { return nil }
        let isToken = !text.isEmpty && text.utf8.allSatisfy(isTokenByte)
        let isUpperCase = !text.utf8.contains { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }
        let suggestion = Suggestion.closest(to: text, in: standard)
        if isToken, isUpperCase, suggestion == nil { return nil }
        if let suggestion { return "unknown method '\(text)'; did you mean '\(suggestion)'?" }
        guard isToken else {
            return "invalid method '\(text)'; a method is a name of letters, digits and !#$%&'*+-.^_`|~ (RFC 9110)"
        }
        return "a method is written in upper case: '\(text.uppercased())'"
    }

    /// `tchar` of RFC 9110, section 5.6.2.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
