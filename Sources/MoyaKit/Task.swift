#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
/// What a request sends, or whether it downloads (Moya's `Task`).
public enum Task: Sendable {
    /// Nothing in the body, no parameters.
    case requestPlain

    /// The body set to raw bytes.
    case requestData(Data)

    /// The body set to an `Encodable` value encoded as JSON (`Content-Type: application/json`),
    /// object keys sorted so the body is the same on every call.
    case requestJSONEncodable(any Encodable & Sendable)

    /// The body set to an `Encodable` value encoded with the given `JSONEncoder` (a copy of it
    /// that sorts object keys, when it does not already).
    case requestCustomJSONEncodable(any Encodable & Sendable, encoder: JSONEncoder)

    /// Parameters encoded by `encoding` into the query string or the body.
    case requestParameters(parameters: [String: any Sendable], encoding: any ParameterEncoding)

    /// The body set to raw bytes, with parameters in the query string.
    case requestCompositeData(bodyData: Data, urlParameters: [String: any Sendable])

    /// Body parameters encoded by `bodyEncoding`, with other parameters in the query string.
    /// A `URLEncoding` body encoding must have the `.httpBody` destination.
    case requestCompositeParameters(
        bodyParameters: [String: any Sendable], bodyEncoding: any ParameterEncoding,
        urlParameters: [String: any Sendable])

    /// The body streamed from a file.
    case uploadFile(URL)

    /// A `multipart/form-data` body.
    case uploadMultipart([MultipartFormBodyPart])

    /// A file streamed as the body, plus URL parameters in the query (what `requestCompositeData`
    /// is for bytes in memory, for a file of any size).
    case uploadCompositeFile(URL, urlParameters: [String: any Sendable])

    /// A `multipart/form-data` body, with parameters in the query string.
    case uploadCompositeMultipart([MultipartFormBodyPart], urlParameters: [String: any Sendable])

    /// The response body written to a file chosen by `destination`.
    case downloadDestination(DownloadDestination)

    /// Parameters encoded by `encoding`, and the response body written to a file.
    case downloadParameters(
        parameters: [String: any Sendable], encoding: any ParameterEncoding,
        destination: DownloadDestination)
}

extension Task {
    /// The download destination, if this task downloads.
    public var downloadDestination: DownloadDestination? {
        switch self {
        case .downloadDestination(let destination), .downloadParameters(_, _, let destination):
            return destination
        default:
            return nil
        }
    }

    /// Whether the body goes to a download destination rather than to the caller.
    public var downloadsFile: Bool { downloadDestination != nil }
}
