import MoyaKit
import TargetModel
import TargetSpec
import TextSafety

/// The line logged for each request: `GET /users/x?page=2 github.userProfile 200 0.4 ms`, secrets
/// redacted as the rest of moya-cli redacts them, every byte from the client escaped for a terminal.
struct RequestLog: Sendable {
    /// The secrets the served files resolve (`${secret:...}`, credentials), hidden wherever they occur.
    var redactor: SecretRedactor
    /// Query parameters whose value is a credential (`auth: {type: apiKey, in: query}`), hidden whatever it is.
    var secretQueryNames: Set<String>

    init(builders: [TargetBuilder]) {
        redactor = SecretRedactor(secretValues: builders.flatMap(ServedSecrets.values))
        var names: Set<String> = []
        for builder in builders {
            for auth in [builder.api.auth].compactMap({ $0 }) + builder.api.authSchemes.map(\.auth) {
                if case .apiKey(.query, let name, _) = auth { names.insert(name) }
            }
        }
        secretQueryNames = names
    }

    /// What the log says of the request's target: its path, and its query with credentials hidden.
    func target(of request: ServeRequest) -> String {
        guard let query = request.rawQuery else { return path(of: request) }
        let items = query.split(separator: "&", omittingEmptySubsequences: false).map { item -> String in
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(pair[0])
            let value = pair.count > 1 ? String(pair[1]) : ""
            // Compared decoded: however a client escapes a secret, it is one.
            let decoded = PercentEncoding.decoded(value) ?? value
            let isSecret =
                secretQueryNames.contains(PercentEncoding.decoded(name) ?? name) || redactor.redact(decoded) != decoded
            return isSecret ? "\(name)=\(SecretRedactor.defaultPlaceholder)" : String(item)
        }
        return path(of: request) + "?" + redactor.redact(items.joined(separator: "&"))
    }

    /// The request's path with secrets hidden: compared decoded too, so a secret a client
    /// escapes (`bot123%3AABC`) is hidden as well; the path is then logged decoded.
    private func path(of request: ServeRequest) -> String {
        let redacted = redactor.redact(request.rawPath)
        guard request.rawPath.utf8.contains(UInt8(ascii: "%")), let decoded = PercentEncoding.decoded(request.rawPath)
        else { return redacted }
        let decodedRedacted = redactor.redact(decoded)
        return decodedRedacted == decoded ? redacted : decodedRedacted
    }

    /// The line, without its line break: method, target, case (`-` when none), outcome, time.
    func line(for request: ServeRequest, caseName: String?, outcome: String, milliseconds: Double) -> String {
        // Tenths written as integers: printing a Double costs more than the rest of the line.
        let tenths = Int(max(0, (milliseconds * 10).rounded()))
        return DisplayText.escaped(
            "\(request.method) \(target(of: request)) \(caseName ?? "-") \(outcome) \(tenths / 10).\(tenths % 10) ms")
    }
}
