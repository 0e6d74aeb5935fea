import PathResolution
import PositionedYAML
import TargetModel
import TextSafety

/// The files of a spec split over several (`$ref: ./schemas/user.yaml#/User`): read only from
/// the spec's own folder, never above it (`..`), from an absolute path, through a link that leads
/// out, or over the network; each a problem naming the reference (exit 65). Each file is read
/// once, within budgets of files and bytes.
final class SpecFiles {
    /// The spec's folder, resolved (links followed).
    let folder: String
    /// The spec file itself, resolved: a reference back to it is to the main document.
    let mainFile: String
    /// Documents read, by their path under `folder` (their key; the main document's is "").
    private var documents: [String: SpecNode] = [:]
    private var byteCount = 0

    /// At most this many files besides the spec, and this many bytes in all of them: a spec
    /// written one operation a file (DigitalOcean's) has thousands; the bytes bound the work.
    static let maximumFiles = 8192
    static let maximumBytes = OpenAPIImporter.limits.maximumFileSize

    /// `specPath`: the spec file as given; its folder holds every file it may read.
    init(specPath: String) {
        let main = CanonicalPath.of(specPath)
        mainFile = main
        let slash = main.lastIndex(of: "/") ?? main.startIndex
        folder = slash == main.startIndex ? "/" : String(main[..<slash])
    }

    /// The document a node is in: the part of its pointer before `#` ("" for the main one).
    static func documentKey(of node: SpecNode) -> String {
        let root = node.rootPointer
        guard let hash = root.firstIndex(of: "#") else { return "" }
        return String(root[..<hash])
    }

    /// A document already read, by key.
    func document(_ key: String) -> SpecNode? {
        documents[key]
    }

    /// The document `path` names, relative to the folder of the document `reference` is in;
    /// its key and root. `mainKey`: the main document's key, for a reference back to it.
    func document(_ path: String, from reference: SpecNode, mainKey: String) throws(SpecProblem) -> (String, SpecNode) {
        func refuse(_ why: String) -> SpecProblem {
            SpecProblem(
                pointer: reference.pointer, mark: reference.mark,
                message: "$ref '\(DisplayText.escaped(path))' \(why)")
        }
        let lower = path.lowercased()
        if lower.contains("://") || lower.hasPrefix("file:") || lower.hasPrefix("//") {
            throw refuse("is a URL: only files in the spec's folder are read, never over the network")
        }
        if path.hasPrefix("/") {
            throw refuse("is an absolute path: only files in the spec's folder are read")
        }
        if path.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
            throw refuse("holds a control character")
        }
        let referrer = Self.documentKey(of: reference)
        let base = referrer.lastIndex(of: "/").map { folder + "/" + referrer[..<$0] } ?? folder
        let resolved = CanonicalPath.of(base + "/" + path)
        if resolved == mainFile { return (mainKey, mainRoot ?? reference) }
        guard CanonicalPath.isResolved(resolved, inside: folder), resolved != folder else {
            throw refuse("leaves the spec's folder (\(DisplayText.escaped(folder))): refused")
        }
        let key = String(resolved.dropFirst(folder == "/" ? 1 : folder.count + 1))
        if let known = documents[key] { return (key, known) }
        guard !key.contains("#") else { throw refuse("names a file with '#' in its path: refused") }
        guard documents.count < Self.maximumFiles else {
            throw refuse("would read more than \(Self.maximumFiles) files: the spec is too large")
        }
        let bytes: [UInt8]
        do throws(YAMLLoadError) {
            bytes = try YAMLLoader.readFile(atPath: resolved, file: key, limits: OpenAPIImporter.limits)
        } catch {
            throw refuse("cannot be read: " + (error.diagnostics.first?.message ?? "unreadable"))
        }
        byteCount += bytes.count
        guard byteCount <= Self.maximumBytes else {
            throw refuse("would read more than \(Self.maximumBytes >> 20) MiB of files: the spec is too large")
        }
        let node: Node
        do throws(OpenAPIImportError) {
            node = try OpenAPIImporter.readDocument(bytes, file: key)
        } catch {
            var reason = "it is not a readable YAML or JSON document"
            if case .unreadable(let diagnostics) = error, let first = diagnostics.first {
                reason += " (\(first.message) at line \(first.mark?.line ?? 0))"
            }
            throw refuse("names \(DisplayText.escaped(key)): " + reason)
        }
        let root = SpecNode(node: node, pointer: key + "#")
        documents[key] = root
        return (key, root)
    }

    /// The main document's root, for references back to it.
    var mainRoot: SpecNode?
}
