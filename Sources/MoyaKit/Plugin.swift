/// Side effects around every request: logging, auth headers, activity indicators...
///
/// The provider calls, in order: `prepare` (may change the request), `adapt` (may change it or
/// fail it, after every `prepare`), `willSend` (just before it
/// is sent or stubbed), `didReceive` (once the exchange ended), `process` (may change the
/// result), then the caller's completion. When the provider's interceptor sends a request again
/// (`MoyaProvider.interceptor`), `prepare`, `adapt`, `willSend` and `didReceive` run for each
/// attempt, `process` for the last. Every method has a pass-through default.
public protocol PluginType: Sendable {
    /// Returns the request to send instead of `request`.
    func prepare(_ request: URLRequest, target: any TargetType) -> URLRequest

    /// Returns the request to send once every plugin prepared it, or why it cannot be sent, as
    /// Alamofire's `RequestAdapter` adapts a request: for work that may fail (signing it, running a
    /// program). Called once per request sent (each retry too), after every `prepare` and before `willSend`; a
    /// failure ends the request with that error, before anything is sent.
    func adapt(_ request: URLRequest, target: any TargetType) -> Result<URLRequest, MoyaError>

    /// Called just before the request is sent over the network, or stubbed.
    func willSend(_ request: any RequestType, target: any TargetType)

    /// Called when the exchange ended, before the completion runs.
    func didReceive(_ result: Result<Response, MoyaError>, target: any TargetType)

    /// Returns the result the completion receives instead of `result`.
    func process(_ result: Result<Response, MoyaError>, target: any TargetType) -> Result<Response, MoyaError>
}

extension PluginType {
    /// Leaves the request as it is.
    public func prepare(_ request: URLRequest, target: any TargetType) -> URLRequest { request }
    /// Leaves the request as it is.
    public func adapt(_ request: URLRequest, target: any TargetType) -> Result<URLRequest, MoyaError> {
        .success(request)
    }
    /// Does nothing.
    public func willSend(_ request: any RequestType, target: any TargetType) {}
    /// Does nothing.
    public func didReceive(_ result: Result<Response, MoyaError>, target: any TargetType) {}
    /// Leaves the result as it is.
    public func process(_ result: Result<Response, MoyaError>, target: any TargetType) -> Result<Response, MoyaError> {
        result
    }
}

/// The request a plugin sees in `willSend`; it never exposes the transport.
public protocol RequestType: Sendable {
    /// The request about to be sent.
    var request: URLRequest? { get }

    /// Headers the session adds to every request (none today; kept for Moya parity).
    var sessionHeaders: [String: String] { get }

    /// The request as a `curl` command line, secrets redacted by `redactor`.
    func cURLDescription(redactor: SecretRedactor) -> String
}

/// The `RequestType` handed to plugins.
struct PreparedRequest: RequestType {
    let request: URLRequest?
    var sessionHeaders: [String: String] { [:] }

    func cURLDescription(redactor: SecretRedactor) -> String {
        guard let request else { return "$ curl command could not be created" }
        return CURLCommand(request: request, redactor: redactor).rendered()
    }
}
