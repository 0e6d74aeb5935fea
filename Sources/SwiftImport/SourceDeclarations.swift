import SwiftParser
import SwiftSyntax

/// One parsed source file, and how its positions read (`File.swift:12:5`).
struct ParsedSource {
    var name: String
    var tree: SourceFileSyntax
    var converter: SourceLocationConverter

    func place(_ node: some SyntaxProtocol) -> String {
        let location = node.startLocation(converter: converter)
        return "\(name):\(location.line):\(location.column)"
    }
}

/// A syntax node with the file it is in.
struct Located<Node: SyntaxProtocol> {
    var node: Node
    var source: ParsedSource

    var place: String { source.place(node) }
}

/// An enum with raw values (`enum Sort: String { case stars, forks }`), a value's type.
struct RawValueEnum {
    var name: String
    var isInt: Bool
    /// `Double` raw values (`{type: double, enum: [...]}`); `isInt` is true for them too (numbers).
    var isDouble = false
    /// The cases' names and raw values, in order.
    var cases: [(name: String, raw: String)]
}

/// What the sources declare that the import reads: types, their conformances, extensions, and
/// protocols that refine `TargetType`.
struct SourceDeclarations {
    struct TypeDeclaration {
        var name: String
        var qualifiedName: String
        var kind: String
        var inherited: [String]
        var node: Located<DeclSyntax>
        var members: [Located<MemberBlockItemSyntax>]
        var caseDecls: [Located<EnumCaseElementSyntax>]
    }

    struct ExtensionDeclaration {
        var extendedName: String
        var inherited: [String]
        var members: [Located<MemberBlockItemSyntax>]
        var node: Located<ExtensionDeclSyntax>
    }

    var types: [TypeDeclaration] = []
    var extensions: [ExtensionDeclaration] = []
    var protocols: [(name: String, inherited: [String])] = []
    var rawValueEnums: [String: RawValueEnum] = [:]
    var notes: [SwiftImportNote] = []

    /// Protocols that are `TargetType` or refine it, through any number of steps.
    var targetProtocols: Set<String> { refining("TargetType") }

    /// Protocols that are `root` or refine it, through any number of steps.
    func refining(_ root: String) -> Set<String> {
        var names: Set<String> = [root]
        var changed = true
        while changed {
            changed = false
            for declared in protocols where !names.contains(declared.name) {
                if declared.inherited.contains(where: { names.contains($0) }) {
                    names.insert(declared.name)
                    changed = true
                }
            }
        }
        return names
    }

    mutating func collect(_ source: ParsedSource) {
        let visitor = DeclarationVisitor(source: source)
        visitor.walk(source.tree)
        types += visitor.types
        extensions += visitor.extensions
        protocols += visitor.protocols
        notes += visitor.notes
        for (name, declared) in visitor.rawValueEnums where rawValueEnums[name] == nil {
            rawValueEnums[name] = declared
        }
    }
}

/// The last component of a type's name, without backticks or a module (`Moya.TargetType` → `TargetType`).
func simpleTypeName(_ type: TypeSyntax) -> String {
    if let member = type.as(MemberTypeSyntax.self) { return identifierText(member.name) }
    if let identifier = type.as(IdentifierTypeSyntax.self) { return identifierText(identifier.name) }
    if let attributed = type.as(AttributedTypeSyntax.self) { return simpleTypeName(attributed.baseType) }
    return type.trimmedDescription
}

/// An identifier as Swift means it: `` `open` `` is `open`.
func identifierText(_ token: TokenSyntax) -> String {
    if let identifier = token.identifier { return identifier.name }
    var text = token.text
    if text.hasPrefix("`"), text.hasSuffix("`"), text.count >= 2 { text = String(text.dropFirst().dropLast()) }
    return text
}

private final class DeclarationVisitor: SyntaxVisitor {
    let source: ParsedSource
    var types: [SourceDeclarations.TypeDeclaration] = []
    var extensions: [SourceDeclarations.ExtensionDeclaration] = []
    var protocols: [(name: String, inherited: [String])] = []
    var rawValueEnums: [String: RawValueEnum] = [:]
    var notes: [SwiftImportNote] = []
    var outer: [String] = []

    init(source: ParsedSource) {
        self.source = source
        super.init(viewMode: .sourceAccurate)
    }

    private func inherited(_ clause: InheritanceClauseSyntax?) -> [String] {
        clause?.inheritedTypes.map { simpleTypeName($0.type) } ?? []
    }

    /// The members of a block, those of a `#if`'s first branch included (with a note).
    private func members(_ block: MemberBlockSyntax) -> [Located<MemberBlockItemSyntax>] {
        var result: [Located<MemberBlockItemSyntax>] = []
        func add(_ list: MemberBlockItemListSyntax) {
            for member in list {
                if let conditional = member.decl.as(IfConfigDeclSyntax.self) {
                    notes.append(
                        SwiftImportNote(
                            place: source.place(conditional), caseName: nil,
                            message:
                                "#if: only the members of its first branch are read (the app's build settings choose; the others are left out)"
                        ))
                    if let first = conditional.clauses.first, case .decls(let decls)? = first.elements { add(decls) }
                } else {
                    result.append(Located(node: member, source: source))
                }
            }
        }
        add(block.members)
        return result
    }

    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
        let name = identifierText(node.name)
        let inheritedNames = inherited(node.inheritanceClause)
        let blockMembers = members(node.memberBlock)
        var caseDecls: [Located<EnumCaseElementSyntax>] = []
        for member in blockMembers {
            if let caseDecl = member.node.decl.as(EnumCaseDeclSyntax.self) {
                caseDecls += caseDecl.elements.map { Located(node: $0, source: source) }
            }
        }
        if let rawType = inheritedNames.first, ["String", "Int", "Double"].contains(rawType) {
            let isInt = rawType != "String"
            var next = 0
            var cases: [(String, String)] = []
            for element in caseDecls {
                let caseName = identifierText(element.node.name)
                var raw = isInt ? String(next) : caseName
                if let value = element.node.rawValue?.value {
                    if let string = value.as(StringLiteralExprSyntax.self)?.representedLiteralValue {
                        raw = string
                    } else if let int = value.as(IntegerLiteralExprSyntax.self)?.representedLiteralValue {
                        raw = String(int)
                    } else if let float = value.as(FloatLiteralExprSyntax.self), rawType == "Double" {
                        raw = float.literal.text.filter { $0 != "_" }
                    } else if let prefix = value.as(PrefixOperatorExprSyntax.self),
                        let int = prefix.expression.as(IntegerLiteralExprSyntax.self)?.representedLiteralValue,
                        prefix.operator.text == "-"
                    {
                        raw = String(-int)
                    }
                }
                if isInt { next = (Int(raw) ?? next) + 1 }
                if rawType == "Double", let prefix = element.node.rawValue?.value.as(PrefixOperatorExprSyntax.self),
                    prefix.operator.text == "-", let float = prefix.expression.as(FloatLiteralExprSyntax.self)
                {
                    raw = "-" + float.literal.text.filter { $0 != "_" }
                }
                cases.append((caseName, raw))
            }
            if rawValueEnums[name] == nil {
                rawValueEnums[name] = RawValueEnum(
                    name: name, isInt: isInt, isDouble: rawType == "Double", cases: cases)
            }
        }
        types.append(
            .init(
                name: name, qualifiedName: (outer + [name]).joined(separator: "."), kind: "enum",
                inherited: inheritedNames, node: Located(node: DeclSyntax(node), source: source),
                members: blockMembers, caseDecls: caseDecls))
        outer.append(name)
        return .visitChildren
    }

    override func visitPost(_ node: EnumDeclSyntax) { outer.removeLast() }

    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        let name = identifierText(node.name)
        types.append(
            .init(
                name: name, qualifiedName: (outer + [name]).joined(separator: "."), kind: "struct",
                inherited: inherited(node.inheritanceClause), node: Located(node: DeclSyntax(node), source: source),
                members: members(node.memberBlock), caseDecls: []))
        outer.append(name)
        return .visitChildren
    }

    override func visitPost(_ node: StructDeclSyntax) { outer.removeLast() }

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        let name = identifierText(node.name)
        types.append(
            .init(
                name: name, qualifiedName: (outer + [name]).joined(separator: "."), kind: "class",
                inherited: inherited(node.inheritanceClause), node: Located(node: DeclSyntax(node), source: source),
                members: members(node.memberBlock), caseDecls: []))
        outer.append(name)
        return .visitChildren
    }

    override func visitPost(_ node: ClassDeclSyntax) { outer.removeLast() }

    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
        extensions.append(
            .init(
                extendedName: simpleTypeName(node.extendedType), inherited: inherited(node.inheritanceClause),
                members: members(node.memberBlock), node: Located(node: node, source: source)))
        return .visitChildren
    }

    override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind {
        protocols.append((identifierText(node.name), inherited(node.inheritanceClause)))
        return .skipChildren
    }

    override func visit(_ node: MacroExpansionDeclSyntax) -> SyntaxVisitorContinueKind {
        notes.append(
            SwiftImportNote(
                place: source.place(node), caseName: nil,
                message: "macro #\(node.macroName.text): what it expands to is not read (only the compiler knows)"))
        return .skipChildren
    }

    override func visit(_ node: MacroExpansionExprSyntax) -> SyntaxVisitorContinueKind {
        notes.append(
            SwiftImportNote(
                place: source.place(node), caseName: nil,
                message: "macro #\(node.macroName.text): what it expands to is not read (only the compiler knows)"))
        return .skipChildren
    }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
}
