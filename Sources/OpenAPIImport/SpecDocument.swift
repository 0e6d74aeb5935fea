import TargetModel
import TextSafety

/// The OpenAPI document: its root, its version, and local `$ref` resolution with cycle detection.
final class SpecDocument {
    enum Version: Equatable {
        case openAPI3(minor: Int)
        case swagger2
    }

    /// Why a `$ref` could not be followed.
    enum ReferenceFailure: Error {
        /// A reference to another document or a URL: not followed (a note, not an error).
        case external(String, at: SpecNode)
        /// A local reference that names nothing, or a chain of references that loops: the spec is invalid.
        case invalid(SpecProblem)
    }

    let root: SpecNode
    let version: Version
    /// The spec's other files, read for `$ref`s to them (`./schemas/user.yaml#/User`); `nil`
    /// (standard input) leaves such references noted, not followed.
    var files: SpecFiles?
    /// References to other files refused (outside the spec's folder, a URL...): each makes the
    /// spec invalid, wherever it was met (a sample's schema too).
    private(set) var refusals: [SpecProblem] = []
    /// Resolved references, by document and pointer (`schemas/user.yaml#/User`).
    private var resolved: [String: SpecNode] = [:]
    /// Members of big mappings (`components/schemas`), indexed on first use: a spec with
    /// thousands of schemas would otherwise search them linearly for every reference.
    private var indexes: [String: [String: SpecNode]] = [:]
    /// Samples made from its schemas (see ``SchemaSampler``), by direction and schema: most
    /// operations of a big spec share a handful of component schemas.
    var samples: [SchemaSampler.Key: SchemaSampler.Memo] = [:]

    init(root: SpecNode, version: Version) {
        self.root = root
        self.version = version
    }

    /// Reads the version from the root (`openapi: 3.x.y` or `swagger: "2.0"`).
    static func version(of root: SpecNode) -> Result<Version, SpecProblem> {
        guard root.isMapping else {
            return .failure(
                SpecProblem(
                    pointer: "#", mark: root.mark,
                    message: "the document is not an OpenAPI description: its top level is not a map"))
        }
        if let field = root["openapi"] {
            let text = field.text ?? ""
            let parts = text.split(separator: ".")
            if parts.count >= 2, parts[0] == "3", let minor = Int(parts[1]), minor <= 1 {
                return .success(.openAPI3(minor: minor))
            }
            return .failure(
                SpecProblem(
                    pointer: field.pointer, mark: field.mark,
                    message:
                        "unsupported OpenAPI version '\(DisplayText.escaped(text))'; 3.0, 3.1 and Swagger 2.0 are read")
            )
        }
        if let field = root["swagger"] {
            if field.text == "2.0" { return .success(.swagger2) }
            return .failure(
                SpecProblem(
                    pointer: field.pointer, mark: field.mark,
                    message: "unsupported Swagger version '\(DisplayText.escaped(field.text ?? ""))'; 2.0 is read"))
        }
        return .failure(
            SpecProblem(
                pointer: "#", mark: root.mark,
                message: "the document is not an OpenAPI description: it has no 'openapi' (or 'swagger') version field")
        )
    }

    /// `node`, or what its `$ref` names (followed through chains of references).
    func resolve(_ node: SpecNode) throws(ReferenceFailure) -> SpecNode {
        var current = node
        var seen: [String] = []
        var visited = Set<String>()
        while let reference = current["$ref"] {
            guard let target = reference.string else {
                throw .invalid(
                    SpecProblem(pointer: reference.pointer, mark: reference.mark, message: "$ref is not a string"))
            }
            guard target.hasPrefix("#") || files != nil else { throw .external(target, at: reference) }
            // A cycle is a node met again, whatever file and spelling led to it.
            let place = SpecFiles.documentKey(of: reference) + "\u{0}" + target
            if seen.contains(target) || !visited.insert(place).inserted {
                throw .invalid(
                    SpecProblem(
                        pointer: reference.pointer, mark: reference.mark,
                        message:
                            "$ref cycle: \(seen.map { DisplayText.escaped($0) }.joined(separator: " -> ")) -> \(DisplayText.escaped(target))"
                    ))
            }
            seen.append(target)
            guard seen.count <= 64 else {
                throw .invalid(
                    SpecProblem(
                        pointer: reference.pointer, mark: reference.mark,
                        message: "more than 64 references in a chain of $ref to $ref"))
            }
            current = try lookUp(target, from: reference)
        }
        return current
    }

    /// The node a reference names: in the referring node's own document (`#/components/...`),
    /// or in another file of the spec (`./schemas/user.yaml#/User`, see ``SpecFiles``).
    func lookUp(_ target: String, from reference: SpecNode) throws(ReferenceFailure) -> SpecNode {
        let hash = target.firstIndex(of: "#") ?? target.endIndex
        let filePart = target[..<hash]
        let fragment = hash == target.endIndex ? "#" : String(target[hash...])
        let key: String
        var node: SpecNode
        if filePart.isEmpty {
            key = SpecFiles.documentKey(of: reference)
            node = key.isEmpty ? root : files?.document(key) ?? root
        } else if let files {
            do throws(SpecProblem) {
                (key, node) = try files.document(String(filePart), from: reference, mainKey: "")
            } catch {
                refusals.append(error)
                throw .invalid(error)
            }
        } else {
            throw .external(target, at: reference)
        }
        let cacheKey = key + fragment
        if let found = resolved[cacheKey] { return found }
        let body = fragment.dropFirst()
        if !body.isEmpty {
            guard body.first == "/" else {
                throw .invalid(
                    SpecProblem(
                        pointer: reference.pointer, mark: reference.mark,
                        message: "$ref '\(DisplayText.escaped(target))' is not a JSON pointer"))
            }
            var walked = node.pointer
            for token in body.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
                let key = SpecNode.unescape(token)
                let next: SpecNode?
                if let elements = node.elements {
                    next = Int(key).flatMap { $0 >= 0 && $0 < elements.count ? elements[$0] : nil }
                } else if node.isMapping {
                    next = member(key, of: node, pointer: walked)
                } else {
                    next = nil
                }
                guard let next else {
                    throw .invalid(
                        SpecProblem(
                            pointer: reference.pointer, mark: reference.mark,
                            message: "$ref '\(DisplayText.escaped(target))' names nothing in the document"))
                }
                node = next
                walked += "/" + SpecNode.escape(key)
            }
        }
        resolved[cacheKey] = node
        return node
    }

    /// A member of a mapping, through an index for mappings with many members.
    private func member(_ key: String, of node: SpecNode, pointer: String) -> SpecNode? {
        guard case .mapping(let entries, _) = node.node, entries.count > 16 else { return node[key] }
        if let index = indexes[pointer] { return index[key] }
        var index: [String: SpecNode] = [:]
        for (name, value) in node.members ?? [] { index[name] = value }
        indexes[pointer] = index
        return index[key]
    }
}
