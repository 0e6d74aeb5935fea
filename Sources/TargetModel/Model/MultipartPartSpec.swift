import PositionedYAML

/// One part of a `multipart:` task: `{name: avatar, file: "{avatar}", fileName: me.png, mimeType: image/png}`.
public struct MultipartPartSpec: Sendable, Hashable {
    /// Where the part's bytes come from.
    public enum Content: Sendable, Hashable {
        /// `value:`: text, sent as UTF-8.
        case value(Template)
        /// `file:`: a file streamed when sent (relative to the target file's folder).
        case file(path: Template)
        /// `data:`: text sent as the part's bytes (typically with a `mimeType`).
        case data(Template)
    }

    /// The form field name.
    public var name: String
    /// The part's bytes.
    public var content: Content
    /// The file name reported to the server; for `file:` parts `nil` means the file's base name.
    public var fileName: String?
    /// The content type; for `file:` parts `nil` means `defaultMIMEType(forPath:)`.
    public var mimeType: String?
    /// Where the part is declared.
    public var mark: Mark

    /// Creates a part.
    public init(name: String, content: Content, fileName: String? = nil, mimeType: String? = nil, mark: Mark) {
        self.name = name
        self.content = content
        self.fileName = fileName
        self.mimeType = mimeType
        self.mark = mark
    }

    /// The content type for a file, from its extension; `application/octet-stream` when unknown.
    public static func defaultMIMEType(forPath path: String) -> String {
        let baseName = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = baseName.lastIndex(of: "."), dot != baseName.startIndex else {
            return "application/octet-stream"
        }
        let pathExtension = baseName[baseName.index(after: dot)...].lowercased()
        return mimeTypesByExtension[pathExtension] ?? "application/octet-stream"
    }

    package static let mimeTypesByExtension: [String: String] = [
        "json": "application/json", "xml": "application/xml", "txt": "text/plain", "csv": "text/csv",
        "html": "text/html", "htm": "text/html", "css": "text/css", "js": "text/javascript",
        "md": "text/markdown", "yaml": "application/yaml", "yml": "application/yaml",
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif",
        "webp": "image/webp", "svg": "image/svg+xml", "ico": "image/vnd.microsoft.icon",
        "pdf": "application/pdf", "zip": "application/zip", "gz": "application/gzip",
        "tar": "application/x-tar", "mp3": "audio/mpeg", "wav": "audio/wav", "mp4": "video/mp4",
        "mov": "video/quicktime", "plist": "application/x-plist", "bin": "application/octet-stream"
    ]
}
