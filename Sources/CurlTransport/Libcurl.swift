import CCurl

#if canImport(Glibc)
import Glibc
#endif

/// The process's libcurl, loaded with `dlopen` on first use.
///
/// Loading libcurl and its dependencies costs about 7 ms, so it happens only when the first request
/// is sent: creating a `Session` or answering from stubs never loads it.
struct Libcurl: @unchecked Sendable {
    // The table is written once, before `shared` publishes it, and only read afterwards.
    let api: UnsafePointer<ccurl_api>

    /// The loaded library, or why it could not be loaded. Swift initializes a `static let` once,
    /// thread-safely, which also makes `curl_global_init` (not thread-safe) run exactly once.
    static let shared: Result<Libcurl, TransportError> = load()

    private static func load() -> Result<Libcurl, TransportError> {
        let table = UnsafeMutablePointer<ccurl_api>.allocate(capacity: 1)
        table.initialize(to: ccurl_api())
        var reason = [CChar](repeating: 0, count: 512)
        guard ccurl_api_load(table, &reason, reason.count) == 0 else {
            table.deallocate()
            return .failure(
                TransportError(
                    kind: .other,
                    message:
                        "libcurl could not be loaded: \(String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)); install libcurl4-openssl-dev"
                ))
        }
        let code = ccurl_global_init_all(table)
        guard code == CURLE_OK else {
            let text = String(cString: ccurl_easy_strerror(table, code))
            table.deallocate()
            return .failure(TransportError(kind: .other, message: "libcurl could not be initialized: \(text)"))
        }
        return .success(
            Libcurl(
                api: UnsafePointer(table), acceptedEncodings: acceptedEncodings(features: ccurl_version_features(table))
            ))
    }

    /// What libcurl sends as `Accept-Encoding` when told to accept every encoding it decodes
    /// (`CURLOPT_ACCEPT_ENCODING` ""), for a library with `features`: the same names, in the same
    /// order (libcurl's content_encoding.c). `nil` when it decodes none: then no line is added,
    /// and libcurl sends its own (`identity`).
    static func acceptedEncodings(features: Int32) -> String? {
        var names: [String] = []
        if features & CURL_VERSION_LIBZ != 0 { names += ["deflate", "gzip"] }
        if features & CURL_VERSION_BROTLI != 0 { names.append("br") }
        if features & CURL_VERSION_ZSTD != 0 { names.append("zstd") }
        // Joined in a loop: `joined(separator:)`'s first use in a process looks up a conformance
        // over the whole static binary (~310,000 instructions of a live call, issue 42).
        var joined: String?
        for name in names { joined = joined.map { $0 + ", " + name } ?? name }
        return joined
    }

    /// The `Accept-Encoding` value for a request that accepts compressed responses: sent as a
    /// header line of the request, since libcurl (7.88) would format the same line again for
    /// every request it sends, about 3% of a small request's work on the transport's thread.
    let acceptedEncodings: String?

    /// libcurl's version, e.g. `"7.88.1"`.
    var version: String { String(cString: ccurl_version(api)) }

    /// libcurl's description of `code`.
    func describe(_ code: CURLcode) -> String {
        String(cString: ccurl_easy_strerror(api, code))
    }
}
