import MoyaKit

/// Applies `-H 'Name: value'` overrides last, so they win over the file's headers and auth.
struct HeaderOverridePlugin: PluginType {
    var overrides: [HeaderOverride]

    func prepare(_ request: URLRequest, target: any TargetType) -> URLRequest {
        var request = request
        for override in overrides {
            request.setValue(override.value, forHTTPHeaderField: override.name)
        }
        return request
    }
}

/// `--curl`: prints the request as a curl command to stderr just before it is sent.
struct CurlEchoPlugin: PluginType {
    var redactor: SecretRedactor
    /// Standard output instead of standard error (`request --curl --offline`).
    var toStandardOutput = false

    func willSend(_ request: any RequestType, target: any TargetType) {
        (toStandardOutput ? StandardStream.output : StandardStream.error).write(
            request.cURLDescription(redactor: redactor) + "\n")
    }
}
