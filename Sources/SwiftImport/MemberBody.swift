import SwiftSyntax

/// A case named in a `switch self` branch, with the names its pattern binds by position
/// (`case .product(let sku, _)` binds `sku` to the first value).
struct CasePattern {
    var caseName: String
    var bindings: [Int: String]
    /// The labels the pattern gives its values (`case .user(id: let id)`), by position.
    var labels: [Int: String]
}

/// A computed member's getter as the import reads it: one expression for every case, or a
/// `switch self` whose branches name cases (or are `default`).
struct MemberBody {
    struct Branch {
        var patterns: [CasePattern]
        var isDefault: Bool
        /// What the branch returns; `nil` when it does more than return one expression.
        var expression: ExprSyntax?
        var node: Syntax
        var locals: Locals = Locals()
    }

    /// What statements before the `return` say: local constants (`let parameters = [...]`),
    /// members added to a local dictionary (`parameters["in_stock"] = inStock`, also under
    /// `if let inStock`), and the statements the import does not follow.
    struct Locals {
        var values: [String: ExprSyntax] = [:]
        var additions: [String: [(key: String, value: ExprSyntax)]] = [:]
        var unread: [Syntax] = []
    }

    /// What the member gives one case.
    struct Resolved {
        var expression: ExprSyntax?
        var bindings: [String: Int]
        var place: String
        var node: Syntax
        var locals: Locals
    }

    enum Shape {
        case single(ExprSyntax, Locals)
        case switched([Branch])
        /// Statements the import does not follow (an `if`, local variables, a call).
        case unreadable
    }

    var name: String
    var shape: Shape {
        didSet { index = Self.index(shape) }
    }
    var source: ParsedSource
    var node: Syntax
    /// Each case name's branch and pattern, for a switch of thousands of cases.
    private var index: [String: (branch: Int, pattern: Int)] = [:]

    init(name: String, shape: Shape, source: ParsedSource, node: Syntax) {
        self.name = name
        self.shape = shape
        self.source = source
        self.node = node
        self.index = Self.index(shape)
    }

    private static func index(_ shape: Shape) -> [String: (branch: Int, pattern: Int)] {
        guard case .switched(let branches) = shape else { return [:] }
        var result: [String: (branch: Int, pattern: Int)] = [:]
        for (branchIndex, branch) in branches.enumerated() {
            for (patternIndex, pattern) in branch.patterns.enumerated() where result[pattern.caseName] == nil {
                result[pattern.caseName] = (branchIndex, patternIndex)
            }
        }
        return result
    }

    /// The pattern that names `caseName`, if a branch does.
    func pattern(for caseName: String) -> CasePattern? {
        guard case .switched(let branches) = shape, let found = index[caseName] else { return nil }
        return branches[found.branch].patterns[found.pattern]
    }

    var place: String { source.place(node) }

    /// What the member gives `caseName`: the expression, the names bound to its values, and
    /// where it is; `nil` expression when the branch cannot be read.
    func branch(for caseName: String) -> Resolved? {
        switch shape {
        case .single(let expression, let locals):
            return Resolved(
                expression: expression, bindings: [:], place: source.place(expression), node: Syntax(expression),
                locals: locals)
        case .unreadable:
            return Resolved(expression: nil, bindings: [:], place: place, node: node, locals: Locals())
        case .switched(let branches):
            if let found = index[caseName] {
                let branch = branches[found.branch]
                for pattern in branch.patterns[found.pattern...].prefix(1) where pattern.caseName == caseName {
                    var bindings: [String: Int] = [:]
                    for (position, name) in pattern.bindings { bindings[name] = position }
                    return Resolved(
                        expression: branch.expression, bindings: bindings, place: source.place(branch.node),
                        node: branch.node, locals: branch.locals)
                }
            }
            if let fallback = branches.first(where: \.isDefault) {
                return Resolved(
                    expression: fallback.expression, bindings: [:], place: source.place(fallback.node),
                    node: fallback.node, locals: fallback.locals)
            }
            return nil
        }
    }

    /// The member `name` among `members` (a `var` with a getter, or a `let`/`var` with an initial value).
    static func find(_ name: String, in members: [Located<MemberBlockItemSyntax>]) -> [MemberBody] {
        var found: [MemberBody] = []
        for member in members {
            guard let variable = member.node.decl.as(VariableDeclSyntax.self) else { continue }
            for binding in variable.bindings {
                guard let pattern = binding.pattern.as(IdentifierPatternSyntax.self),
                    identifierText(pattern.identifier) == name
                else { continue }
                found.append(
                    MemberBody(
                        name: name, shape: shape(of: binding), source: member.source, node: Syntax(binding)))
            }
        }
        return found
    }

    private static func shape(of binding: PatternBindingSyntax) -> Shape {
        if let value = binding.initializer?.value { return .single(value, Locals()) }
        guard let accessors = binding.accessorBlock?.accessors else { return .unreadable }
        switch accessors {
        case .getter(let items):
            return shape(of: items)
        case .accessors(let list):
            for accessor in list where accessor.accessorSpecifier.tokenKind == .keyword(.get) {
                if let body = accessor.body { return shape(of: body.statements) }
            }
            return .unreadable
        }
    }

    static func shape(of items: CodeBlockItemListSyntax) -> Shape {
        guard let (expression, locals) = returnedExpression(items) else { return .unreadable }
        if let switchExpression = expression.as(SwitchExprSyntax.self) {
            let subject = switchExpression.subject.trimmedDescription
            guard subject == "self" else { return .unreadable }
            var branches: [Branch] = []
            var elements: [SwitchCaseSyntax] = []
            for element in switchExpression.cases {
                switch element {
                case .switchCase(let switchCase): elements.append(switchCase)
                case .ifConfigDecl(let conditional):
                    // The first branch's cases, as the type's own members are read.
                    if let first = conditional.clauses.first, case .switchCases(let cases)? = first.elements {
                        for inner in cases {
                            if case .switchCase(let switchCase) = inner { elements.append(switchCase) }
                        }
                    }
                }
            }
            for switchCase in elements {
                let body = returnedExpression(switchCase.statements)
                switch switchCase.label {
                case .default:
                    branches.append(
                        Branch(
                            patterns: [], isDefault: true, expression: body?.0, node: Syntax(switchCase),
                            locals: body?.1 ?? Locals()))
                case .case(let label):
                    let patterns = label.caseItems.compactMap { casePattern($0.pattern) }
                    branches.append(
                        Branch(
                            patterns: patterns, isDefault: false, expression: body?.0, node: Syntax(switchCase),
                            locals: body?.1 ?? Locals()))
                }
            }
            return .switched(branches)
        }
        return .single(expression, locals)
    }

    /// The expression statements return (`return x`, `x` alone, a `switch`), and what the
    /// statements before it say.
    static func returnedExpression(_ items: CodeBlockItemListSyntax) -> (ExprSyntax, Locals)? {
        guard let last = items.last, let expression = Self.expression(of: last) else { return nil }
        var locals = Locals()
        for item in items.dropLast() {
            if case .decl(let declaration) = item.item, let variable = declaration.as(VariableDeclSyntax.self),
                variable.bindings.count == 1, let binding = variable.bindings.first,
                let pattern = binding.pattern.as(IdentifierPatternSyntax.self), let value = binding.initializer?.value
            {
                locals.values[identifierText(pattern.identifier)] = value
                continue
            }
            if let statement = Self.expression(of: item), addition(statement, into: &locals) { continue }
            locals.unread.append(Syntax(item))
        }
        return (expression, locals)
    }

    private static func expression(of item: CodeBlockItemSyntax) -> ExprSyntax? {
        switch item.item {
        case .expr(let expression):
            return expression
        case .stmt(let statement):
            if let returned = statement.as(ReturnStmtSyntax.self) { return returned.expression }
            if let expressionStatement = statement.as(ExpressionStmtSyntax.self) {
                return expressionStatement.expression
            }
            return nil
        default:
            return nil
        }
    }

    /// `dictionary["key"] = value`, or such assignments alone under `if let value { … }`.
    private static func addition(_ expression: ExprSyntax, into locals: inout Locals) -> Bool {
        if let sequence = expression.as(SequenceExprSyntax.self), sequence.elements.count == 3 {
            let elements = Array(sequence.elements)
            guard elements[1].is(AssignmentExprSyntax.self),
                let subscriptCall = elements[0].as(SubscriptCallExprSyntax.self),
                let base = subscriptCall.calledExpression.as(DeclReferenceExprSyntax.self),
                subscriptCall.arguments.count == 1,
                let key = subscriptCall.arguments.first?.expression.as(StringLiteralExprSyntax.self)?
                    .representedLiteralValue
            else { return false }
            locals.additions[identifierText(base.baseName), default: []].append((key, elements[2]))
            return true
        }
        if let conditional = expression.as(IfExprSyntax.self), conditional.elseBody == nil {
            var copy = locals
            for statement in conditional.body.statements {
                guard let inner = self.expression(of: statement), addition(inner, into: &copy) else { return false }
            }
            locals = copy
            return true
        }
        return false
    }

    /// `.name`, `.name(let a, _)`, `let .name(a, b)`, `.name(id: let id)`.
    static func casePattern(_ pattern: PatternSyntax) -> CasePattern? {
        if let bound = pattern.as(ValueBindingPatternSyntax.self) {
            guard let inner = bound.pattern.as(ExpressionPatternSyntax.self) else { return nil }
            return casePattern(inner.expression, outerBinding: true)
        }
        if let expressionPattern = pattern.as(ExpressionPatternSyntax.self) {
            return casePattern(expressionPattern.expression, outerBinding: false)
        }
        return nil
    }

    private static func casePattern(_ expression: ExprSyntax, outerBinding: Bool) -> CasePattern? {
        if let member = expression.as(MemberAccessExprSyntax.self) {
            return CasePattern(caseName: identifierText(member.declName.baseName), bindings: [:], labels: [:])
        }
        guard let call = expression.as(FunctionCallExprSyntax.self),
            let member = call.calledExpression.as(MemberAccessExprSyntax.self)
        else { return nil }
        var bindings: [Int: String] = [:]
        var labels: [Int: String] = [:]
        for (position, argument) in call.arguments.enumerated() {
            if let label = argument.label { labels[position] = identifierText(label) }
            if let name = boundName(argument.expression, outerBinding: outerBinding) { bindings[position] = name }
        }
        return CasePattern(
            caseName: identifierText(member.declName.baseName), bindings: bindings, labels: labels)
    }

    private static func boundName(_ expression: ExprSyntax, outerBinding: Bool) -> String? {
        if let patternExpression = expression.as(PatternExprSyntax.self) {
            if let bound = patternExpression.pattern.as(ValueBindingPatternSyntax.self),
                let identifier = bound.pattern.as(IdentifierPatternSyntax.self)
            {
                return identifierText(identifier.identifier)
            }
            if let identifier = patternExpression.pattern.as(IdentifierPatternSyntax.self), outerBinding {
                return identifierText(identifier.identifier)
            }
            return nil
        }
        if outerBinding, let reference = expression.as(DeclReferenceExprSyntax.self) {
            return identifierText(reference.baseName)
        }
        return nil
    }
}
