/// Why `serve` cannot start.
package enum ServeError: Error, Sendable, CustomStringConvertible {
    /// Cases of two APIs answer the same method and route: which would answer is not clear.
    case routeClash(first: String, second: String, file: String, route: String)
    /// A case's base URL cannot be rendered (an unset `${VAR}`, an invalid URL).
    case baseURL(api: String, caseName: String, reason: String)
    /// `--sample NAME` names a sample no served case has.
    case unknownSample(String, available: [String])
    /// The address cannot be listened on (in use, not this machine's, not permitted).
    case cannotListen(host: String, port: Int, reason: String)

    package var description: String {
        switch self {
        case .routeClash(let first, let second, let file, let route):
            "\(file): case '\(second)' answers \(route), as '\(first)' does; cases of two APIs must differ in "
                + "method or path (give one API a base URL path prefix, or serve them apart)"
        case .baseURL(let api, let caseName, let reason):
            "cannot serve '\(api).\(caseName)': \(reason)"
        case .unknownSample(let name, let available):
            "no served case has a sample named '\(name)'; samples: "
                + (available.isEmpty ? "none" : available.joined(separator: ", "))
        case .cannotListen(let host, let port, let reason):
            "cannot listen on \(host):\(port): \(reason)"
        }
    }
}
