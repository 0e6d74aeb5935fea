import TargetModel

/// What is done to each request of a target as it is sent, by the one sender (Sending's
/// `RequestPreparationPlugin`), once per request: each page, each retry, each request of `check`.
/// Built by `TargetBuilder`; `nil` parts when the request is stubbed (nothing is run or signed
/// for a request that is never sent).
public struct RequestPreparation: Sendable, Hashable {
    /// `prepare: [program, args…]`, with the file that names it (whose trust decides whether it runs).
    public var hook: PrepareHook?
    /// `auth: {type: awsSigV4}`, its references resolved.
    public var awsSigV4: AWSSigV4Credential?

    /// Creates a preparation.
    public init(hook: PrepareHook? = nil, awsSigV4: AWSSigV4Credential? = nil) {
        self.hook = hook
        self.awsSigV4 = awsSigV4
    }

    /// Whether there is anything to do.
    public var isEmpty: Bool { hook == nil && awsSigV4 == nil }
}

/// A `prepare` program and the file that names it.
public struct PrepareHook: Sendable, Hashable {
    /// The API's name.
    public var apiName: String
    /// The program and its arguments, run without a shell.
    public var arguments: [String]
    /// Seconds the program may run.
    public var timeout: Double
    /// The target file that names the program.
    public var file: String

    /// Creates a hook.
    public init(apiName: String, arguments: [String], timeout: Double, file: String) {
        self.apiName = apiName
        self.arguments = arguments
        self.timeout = timeout
        self.file = file
    }
}

/// AWS Signature Version 4 credentials and scope, resolved; the keys are among the target's
/// `secretValues`.
public struct AWSSigV4Credential: Sendable, Hashable {
    public var region: String
    public var service: String
    public var accessKey: String
    public var secretKey: String
    public var sessionToken: String?

    /// Creates a credential.
    public init(region: String, service: String, accessKey: String, secretKey: String, sessionToken: String? = nil) {
        self.region = region
        self.service = service
        self.accessKey = accessKey
        self.secretKey = secretKey
        self.sessionToken = sessionToken
    }
}

/// Runs `prepare` programs (TargetAuth has the one the command line uses: it runs a program only
/// from a trusted file). Asked once per request, with the request as JSON; answers the program's
/// standard output.
public protocol PrepareHookRunning: Sendable {
    /// Runs `hook` with `input` on its standard input; what it printed.
    func run(_ hook: PrepareHook, input: [UInt8]) throws(PrepareHookError) -> [UInt8]
}

/// Why a `prepare` program could not prepare a request; the message holds no secret.
public struct PrepareHookError: Error, Sendable, CustomStringConvertible {
    /// Whether the program was refused (an untrusted file) rather than run and failed.
    public var isRefusal: Bool
    public var message: String

    /// Creates an error.
    public init(_ message: String, isRefusal: Bool = false) {
        self.message = message
        self.isRefusal = isRefusal
    }

    public var description: String { message }
}
