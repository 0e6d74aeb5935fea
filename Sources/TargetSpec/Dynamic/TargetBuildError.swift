import TargetModel

/// Why a case could not be turned into a request; each names what to fix.
public enum TargetBuildError: Error, Sendable, CustomStringConvertible {
    /// A `${VAR}` or placeholder could not be rendered (with the file and the mark of the reference).
    case render(TemplateRenderError, file: String)
    /// A name given on the command line (environment, sample) is unknown.
    case lookup(SpecLookupError)
    /// The base URL breaks the base-URL rules after rendering (the message says which).
    case invalidBaseURL(String)
    /// A file the request needs cannot be read.
    case unreadableFile(String)
    /// A file the request needs is not a regular file (a FIFO, a device, a folder): reading it
    /// could block or never end.
    case notRegularFile(String, kind: String)
    /// A header-like field (a header value, a multipart name, file name or MIME type) holds CR,
    /// LF or NUL, which would end its line and start another.
    case lineBreakInField(String)
    /// A path the target file builds from a value leaves the folder it must stay in (the files
    /// folder for files it reads, the current folder for downloads).
    case outsideFolder(what: String, path: String, folder: String)
    /// A download destination the file builds names a dotfile or a dot-folder.
    case hiddenDownloadDestination(path: String, name: String)
    /// A value used in a download destination would add a folder (`/`, `.`, `..`).
    case destinationValueAddsFolder(name: String, value: String)
    /// The token of `oauth2` or `command` auth could not be obtained.
    case accessToken(AccessTokenError)
    /// A file that is not trusted names `tls:` files (a client certificate, a CRL) for a live request.
    case untrustedTLSFiles(file: String)

    public var description: String {
        switch self {
        case .render(let error, let file): "\(file):\(error.mark): \(error.description)"
        case .lookup(let error): error.description
        case .invalidBaseURL(let problem): problem
        case .unreadableFile(let path): "cannot read file '\(path)'"
        case .notRegularFile(let path, let kind): "cannot send '\(path)': it is \(kind), not a regular file"
        case .lineBreakInField(let field):
            "\(field) holds a line break or NUL character; it would inject a line into the request"
        case .outsideFolder(let what, let path, let folder):
            "\(what) '\(path)' is outside \(folder); a target file may only use files inside it"
        case .hiddenDownloadDestination(let path, let name):
            "download destination '\(path)' names '\(name)'; a target file may not write dotfiles or into dot-folders "
                + "(give --output FILE to write there)"
        case .accessToken(let error): error.message
        case .untrustedTLSFiles(let file):
            "\(file) names TLS files (tls: crlFile, clientCert, clientKey), which only a trusted file may use; "
                + "trust it with 'moya-cli trust \(file)', or give --crlfile, --cert and --key"
        case .destinationValueAddsFolder(let name, let value):
            "value '\(name)' ('\(value)') would add a folder to the download destination; a value used there cannot hold '/' or be '.' or '..'"
        }
    }
}
