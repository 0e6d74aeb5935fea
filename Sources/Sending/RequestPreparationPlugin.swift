import CCleanup
import ContentDigest
import CurlTransport
import HTTPTypes
import MoyaKit
import OrderedJSON
import TargetModel
import TargetSpec

#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The per-request work of the one sender, done as each request goes out (each page, retry and
/// request of `check`), after every other plugin prepared it: `{$uuid}`, `{$timestamp}` and
/// `{$isoDate}` made and put in the URL, headers and body; the file's `prepare` program run with
/// the request and its headers added; the request signed with SigV4 last, so the signature
/// covers all of it. The last of `Sender.sendingPlugins`.
package struct RequestPreparationPlugin: PluginType {
    /// Runs `prepare` programs; `nil`: a request whose file names one fails.
    package var hooks: (any PrepareHookRunning)?
    /// The values of a request's `{$…}` and the time SigV4 signs with.
    package var makeValues: @Sendable () -> DynamicValues

    package init(
        hooks: (any PrepareHookRunning)?, makeValues: @escaping @Sendable () -> DynamicValues = { DynamicValues() }
    ) {
        self.hooks = hooks
        self.makeValues = makeValues
    }

    /// Header names a `prepare` program may not set: they frame the message, and are the transport's.
    static let reservedHeaderNames: Set<String> = ["host", "content-length", "transfer-encoding", "connection"]

    package func adapt(_ request: URLRequest, target: any TargetType) -> Result<URLRequest, MoyaError> {
        let preparation = (target as? DynamicTarget)?.preparation
        var values: DynamicValues?
        var request = request
        if Self.hasMarkers(request) {
            let made = makeValues()
            values = made
            Self.substitute(made, in: &request)
        }
        guard let preparation else { return .success(request) }
        do throws(PrepareHookError) {
            if let hook = preparation.hook {
                guard let hooks else { throw PrepareHookError("no program may run here", isRefusal: true) }
                try run(hook, with: hooks, on: &request)
            }
            if let credential = preparation.awsSigV4 {
                try sign(&request, with: credential, at: (values ?? makeValues()).seconds)
            }
        } catch {
            return .failure(.underlying(error, nil))
        }
        return .success(request)
    }

    // MARK: Dynamic values

    package static func hasMarkers(_ request: URLRequest) -> Bool {
        if let url = request.url, DynamicValues.hasMarker(url.absoluteString) { return true }
        if request.headers.contains(where: { DynamicValues.hasMarker($0.value) }) { return true }
        if let body = request.httpBody, DynamicValues.hasMarker(in: body) {
            return true
        }
        return false
    }

    package static func substitute(_ values: DynamicValues, in request: inout URLRequest) {
        if let url = request.url, DynamicValues.hasMarker(url.absoluteString) {
            request.url = URL(string: values.substituting(in: url.absoluteString)) ?? url
        }
        if request.headers.contains(where: { DynamicValues.hasMarker($0.value) }) {
            request.headers = HTTPFields(
                request.headers.map { HTTPField(name: $0.name, value: values.substituting(in: $0.value)) })
        }
        if let body = request.httpBody, let substituted = values.substituting(in: body) {
            request.httpBody = substituted
        }
    }

    // MARK: prepare

    /// Runs `hook` with the request as JSON on its standard input and adds the headers it prints
    /// (a JSON object of names to strings), each marked sensitive: hidden in output like a credential.
    private func run(_ hook: PrepareHook, with hooks: any PrepareHookRunning, on request: inout URLRequest)
        throws(PrepareHookError)
    {
        let program = hook.arguments.first ?? ""
        let body = try BodyForHook(request)
        defer { body.remove() }
        var headers: [(String, JSONValue)] = []
        for field in request.headers {
            if let index = headers.firstIndex(where: { $0.0.lowercased() == field.name.canonicalName }),
                case .string(let earlier) = headers[index].1
            {
                headers[index].1 = .string(earlier + ", " + field.value)
            } else {
                headers.append((field.name.rawName, .string(field.value)))
            }
        }
        let input = JSONValue.object([
            ("method", .string(request.httpMethod ?? "GET")),
            ("url", .string(request.url?.absoluteString ?? "")),
            ("headers", .object(headers)),
            ("bodySha256", body.sha256.map(JSONValue.string) ?? .null),
            ("bodyFile", body.path.map(JSONValue.string) ?? .null)
        ])
        let output = try hooks.run(hook, input: input.serializedBytes() + [UInt8(ascii: "\n")])
        guard let parsed = try? JSONValue(parsing: output), case .object(let members) = parsed else {
            throw PrepareHookError(
                "the prepare program '\(program)' did not print a JSON object of headers, like {\"X-Signature\": \"…\"}"
            )
        }
        for (name, value) in members {
            guard case .string(let text) = value else {
                throw PrepareHookError(
                    "the prepare program '\(program)' gave header '\(name)' a value that is not a string")
            }
            guard let fieldName = HTTPField.Name(name), !Self.reservedHeaderNames.contains(fieldName.canonicalName)
            else {
                throw PrepareHookError("the prepare program '\(program)' printed a header name that cannot be sent")
            }
            guard !HeaderLine.holdsLineBreak(text), !text.unicodeScalars.contains(where: { $0.value == 0 }) else {
                throw PrepareHookError(
                    "the prepare program '\(program)' printed a value for '\(name)' with a line break or NUL in it")
            }
            request.headers[fieldName] = text
            request.sensitiveHeaderNames.insert(fieldName.canonicalName)
        }
    }

    /// The body as a `prepare` program reads it: its SHA-256 and a file holding it (a private
    /// temporary copy of a body in memory, removed after the run; an upload's own file). A
    /// multipart form, which the transport builds, has neither.
    struct BodyForHook {
        var sha256: String?
        var path: String?
        var isTemporary = false
        var cleanupSlot: Int32 = -1

        init(_ request: URLRequest) throws(PrepareHookError) {
            if let file = request.bodyFileURL {
                path = file.path
                sha256 = try RequestPreparationPlugin.fileSHA256(file.path)
                return
            }
            if request.multipartParts != nil { return }
            let bytes = request.httpBody ?? Data()
            sha256 = SHA256.hexDigest(of: bytes)
            let folder = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
            var template = Array((folder + "/moya-prepare-body-XXXXXX").utf8CString)
            let descriptor = mkstemp(&template)
            guard descriptor >= 0 else {
                throw PrepareHookError(
                    "cannot write the request body for the prepare program: \(String(cString: strerror(errno)))")
            }
            defer { close(descriptor) }
            let made = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
            path = made
            isTemporary = true
            // Ctrl-C while the program runs must not leave the copy of the body behind.
            cleanupSlot = moya_cleanup_register(made, 0)
            var written = 0
            let all = Array(bytes)
            while written < all.count {
                let count = all[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else {
                    remove()
                    throw PrepareHookError(
                        "cannot write the request body for the prepare program: \(String(cString: strerror(errno)))")
                }
                written += count
            }
        }

        func remove() {
            if isTemporary, let path { unlink(path) }
            if cleanupSlot >= 0 { moya_cleanup_forget(cleanupSlot) }
        }
    }

    /// The SHA-256 of the file at `path`, read in pieces.
    static func fileSHA256(_ path: String) throws(PrepareHookError) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw PrepareHookError("cannot read \(path) to hash the body: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var hash = SHA256()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            if count < 0 {
                throw PrepareHookError("cannot read \(path) to hash the body: \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            hash.update(buffer[0..<count])
        }
        return HMACSHA256.hex(hash.finalize())
    }

    // MARK: SigV4

    /// Headers never signed: the transport may change or drop them on the way.
    static let unsignedHeaderNames: Set<String> = [
        "authorization", "user-agent", "expect", "connection", "transfer-encoding", "content-length",
        "x-amz-date", "x-amz-security-token", "x-amz-content-sha256"
    ]

    private func sign(_ request: inout URLRequest, with credential: AWSSigV4Credential, at seconds: Int)
        throws(PrepareHookError)
    {
        let payloadHash: String
        if let file = request.bodyFileURL {
            payloadHash = try Self.fileSHA256(file.path)
        } else if request.multipartParts != nil {
            payloadHash = AWSSigV4Signer.unsignedPayload
        } else {
            payloadHash = SHA256.hexDigest(of: request.httpBody ?? Data())
        }
        let headers = request.headers.filter { !Self.unsignedHeaderNames.contains($0.name.canonicalName) }.map {
            (name: $0.name.canonicalName, value: $0.value)
        }
        let signer = AWSSigV4Signer(credential: credential)
        let added = signer.signatureHeaders(
            for: AWSSigV4Signer.Request(
                method: request.httpMethod ?? "GET", url: request.url?.absoluteString ?? "", headers: headers,
                payloadHash: payloadHash),
            at: seconds, sendsContentHash: credential.service == "s3")
        for (name, value) in added { request.setValue(value, forHTTPHeaderField: name) }
    }
}
