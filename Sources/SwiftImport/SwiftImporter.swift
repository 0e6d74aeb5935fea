import SwiftParser
import SwiftSyntax
import TargetModel

/// `moya-cli import swift`'s engine: Swift sources read with swift-syntax, every type conforming
/// to Moya's `TargetType` (directly, through an extension, or through a protocol that refines it)
/// made a target file; what only the running app knows is a note at its place.
package enum SwiftImporter {
    /// The largest source file read (a generated file of 10,000 cases is about 4 MiB).
    package static let maximumFileSize = 16 << 20

    package static func importSources(
        _ files: [(name: String, bytes: [UInt8])], options: SwiftImportOptions, header: [String] = []
    ) throws(SwiftImportError) -> SwiftImportResult {
        var declarations = SourceDeclarations()
        var sources: [ParsedSource] = []
        for file in files {
            if let offset = firstInvalidUTF8(file.bytes) {
                let (line, column) = lineAndColumn(of: offset, in: file.bytes)
                throw SwiftImportError(
                    place: "\(file.name):\(line):\(column)",
                    "not UTF-8 text (byte 0x\(String(file.bytes[offset], radix: 16, uppercase: true))): Swift sources are UTF-8"
                )
            }
            if let offset = firstDeepArrayNesting(file.bytes) {
                let (line, column) = lineAndColumn(of: offset, in: file.bytes)
                throw SwiftImportError(
                    place: "\(file.name):\(line):\(column)",
                    "more than \(maximumDirectArrayNesting) array literals directly inside one another ([[[…): the import does not read them (Swift's parser slows down exponentially on them)"
                )
            }
            let tree = Parser.parse(source: String(decoding: file.bytes, as: UTF8.self))
            let source = ParsedSource(
                name: file.name, tree: tree, converter: SourceLocationConverter(fileName: file.name, tree: tree))
            if tree.hasError {
                let finder = ErrorFinder(viewMode: .all)
                finder.walk(tree)
                throw SwiftImportError(
                    place: finder.first.map { source.place($0) } ?? "\(file.name):1:1",
                    "the source does not parse as Swift"
                        + (finder.first.map { " (near '\(ExpressionReader.short($0))')" } ?? ""))
            }
            sources.append(source)
            declarations.collect(source)
        }
        let protocols = declarations.targetProtocols
        var notes = declarations.notes
        var seen: [String: String] = [:]
        var targets: [SourceDeclarations.TypeDeclaration] = []
        for type in declarations.types {
            let conforms =
                type.inherited.contains(where: protocols.contains)
                || declarations.extensions.contains {
                    $0.extendedName == type.name && $0.inherited.contains(where: protocols.contains)
                }
            guard conforms else { continue }
            if let first = seen[type.qualifiedName] {
                notes.append(
                    SwiftImportNote(
                        place: type.node.place, caseName: nil,
                        message: "\(type.qualifiedName) is declared again (first at \(first)): this one is left out"))
                continue
            }
            seen[type.qualifiedName] = type.node.place
            targets.append(type)
        }
        for declared in declarations.extensions where declared.inherited.contains(where: protocols.contains) {
            if !declarations.types.contains(where: { $0.name == declared.extendedName }) {
                notes.append(
                    SwiftImportNote(
                        place: declared.node.place, caseName: nil,
                        message:
                            "\(declared.extendedName) conforms to TargetType here but is not declared in the sources given: left out"
                    ))
            }
        }
        guard !targets.isEmpty else {
            throw SwiftImportError(
                place: files.count == 1 ? files[0].name : nil,
                "no type conforming to TargetType (directly, through an extension or a protocol that refines it) in \(files.count == 1 ? files[0].name : "\(files.count) files")"
            )
        }
        if targets.count > 1, let wanted = options.apiName {
            let matching = targets.filter { apiName(for: $0.name) == wanted.lowercased() || $0.name == wanted }
            if !matching.isEmpty { targets = matching }
        }
        var apis: [SwiftImportedAPI] = []
        var taken: Set<String> = []
        for type in targets {
            let name = targets.count == 1 ? (options.apiName ?? apiName(for: type.name)) : apiName(for: type.name)
            var unique = name
            var number = 2
            while !taken.insert(unique).inserted {
                unique = name + "-\(number)"
                number += 1
            }
            var builder = APIBuilder(
                type: type, declarations: declarations, protocols: protocols, apiName: unique,
                samplesFolder: options.samplesFolder)
            let api = builder.build(header: header)
            notes += builder.notes
            apis.append(api)
        }
        return SwiftImportResult(apis: apis, notes: notes)
    }

    /// The API name a type's name gives: `GitHubAPI` → `githubapi`.
    static func apiName(for typeName: String) -> String {
        var name = String(
            typeName.lowercased().unicodeScalars.filter {
                ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-"
            }.map(Character.init))
        if name.first.map({ !("a"..."z").contains($0) }) ?? true { name = "api" + name }
        return name
    }

    /// The most `[` directly inside one another (`[[[1]]]` is 3) a source may have: swift-syntax
    /// tries each as an array type too, in time that doubles with every level (16 took a second).
    static let maximumDirectArrayNesting = 12

    /// Where a run of more than ``maximumDirectArrayNesting`` `[` (white space between them
    /// aside, string literals on one line skipped) starts.
    static func firstDeepArrayNesting(_ bytes: [UInt8]) -> Int? {
        var run = 0
        var start = 0
        var index = 0
        var inString = false
        while index < bytes.count {
            let byte = bytes[index]
            if inString {
                if byte == UInt8(ascii: "\\") {
                    index += 1
                } else if byte == UInt8(ascii: "\"") || byte == 0x0A {
                    inString = false
                }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
                run = 0
            } else if byte == UInt8(ascii: "[") {
                if run == 0 { start = index }
                run += 1
                if run > maximumDirectArrayNesting { return start }
            } else if byte != 0x20 && byte != 0x0A && byte != 0x09 && byte != 0x0D {
                run = 0
            }
            index += 1
        }
        return nil
    }

    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        var lastGood = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                offset += UTF8.width(scalar)
                lastGood = offset
            case .emptyInput:
                return nil
            case .error:
                return lastGood
            }
        }
    }

    static func lineAndColumn(of offset: Int, in bytes: [UInt8]) -> (Int, Int) {
        var line = 1
        var column = 1
        for byte in bytes.prefix(offset) {
            if byte == 0x0A {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return (line, column)
    }
}

/// The first place a parse went wrong: a missing token or unexpected text.
private final class ErrorFinder: SyntaxVisitor {
    var first: Syntax?

    override func visit(_ node: UnexpectedNodesSyntax) -> SyntaxVisitorContinueKind {
        if first == nil { first = Syntax(node) }
        return .skipChildren
    }

    override func visit(_ token: TokenSyntax) -> SyntaxVisitorContinueKind {
        if first == nil, token.presence == .missing { first = Syntax(token) }
        return .skipChildren
    }
}
