#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One part of a `multipart/form-data` body.
public struct MultipartFormBodyPart: Sendable, Hashable {
    /// Where the part's bytes come from.
    public enum Provider: Sendable, Hashable {
        /// Bytes in memory.
        case data(Data)
        /// A file, streamed when the request is sent.
        case file(URL)
    }

    /// The source of the part's bytes.
    public let provider: Provider
    /// The form field name.
    public let name: String
    /// The file name reported to the server, if any.
    public let fileName: String?
    /// The part's content type, if any.
    public let mimeType: String?

    /// Creates a part.
    public init(provider: Provider, name: String, fileName: String? = nil, mimeType: String? = nil) {
        self.provider = provider
        self.name = name
        self.fileName = fileName
        self.mimeType = mimeType
    }
}
