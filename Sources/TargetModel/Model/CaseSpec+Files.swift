/// The files a case touches, as the target file writes them: what `list` and case help show, so a
/// user sees what a file someone else wrote will read and write before running it.
extension CaseSpec {
    /// The files the case reads: its body file, upload, multipart files and sample files.
    public var filesRead: [String] {
        var paths: [String] = []
        switch self.task {
        case .dataFile(let path), .uploadFile(let path): paths.append(path.source)
        case .compositeData(.dataFile(let path), _): paths.append(path.source)
        case .multipart(let parts), .compositeMultipart(let parts, _):
            for part in parts { if case .file(let path) = part.content { paths.append(path.source) } }
        default: break
        }
        for named in self.samples {
            if case .response(_, _, .file(let path)) = named.sample.outcome { paths.append(path.source) }
        }
        var seen = Set<String>()
        return paths.filter { seen.insert($0).inserted }
    }

    /// The files the case writes: its download destination (below the current folder).
    public var filesWritten: [String] {
        switch self.task {
        case .download(let destination), .downloadParameters(_, _, let destination): [destination.source]
        default: []
        }
    }

    /// `reads a, b; writes c`, or `nil` when the case touches no file.
    public var filesSummary: String? {
        var parts: [String] = []
        if !filesRead.isEmpty { parts.append("reads " + filesRead.joined(separator: ", ")) }
        if !filesWritten.isEmpty { parts.append("writes " + filesWritten.joined(separator: ", ")) }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }
}
