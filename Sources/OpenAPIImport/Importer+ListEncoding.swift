import TargetModel

/// How a case's lists are URL-encoded (`arrayEncoding`), from OpenAPI's `style` and `explode`
/// or Swagger's `collectionFormat`, of query parameters and form fields.
extension Importer {
    /// The URL encoding of a list parameter, by its `style` and `explode` (Swagger 2.0: its
    /// `collectionFormat`), as the case's `arrayEncoding`.
    func noteArrayEncoding(_ parameter: SpecNode, operation: Operation, draft: inout CaseDraft) {
        let name = parameter["name"]?.text ?? ""
        if isSwagger2 {
            chooseArrayEncoding(
                collectionFormat: parameter["collectionFormat"]?.string ?? "csv", at: parameter,
                what: "query parameter '\(name)'", operation: operation, draft: &draft)
        } else {
            chooseArrayEncoding(
                style: parameter["style"]?.string, explode: parameter["explode"]?.bool, at: parameter,
                what: "query parameter '\(name)'", operation: operation, draft: &draft)
        }
    }

    /// Sets the case's `arrayEncoding` for a list in OpenAPI `style` (default `form`) and
    /// `explode` (default true for `form`): `form` repeats the name (`noBrackets`) or, not
    /// exploded, joins with commas (`comma`); `deepObject` writes `name[]=` (`brackets`);
    /// `spaceDelimited` and `pipeDelimited` exploded are `form`'s, not exploded they have no
    /// encoding here (sent comma-separated, noted).
    func chooseArrayEncoding(
        style: String?, explode: Bool?, at node: SpecNode, what: String, operation: Operation, draft: inout CaseDraft
    ) {
        let style = style ?? "form"
        let explode = explode ?? (style == "form")
        let encoding: String
        switch (style, explode) {
        case ("form", true), ("spaceDelimited", true), ("pipeDelimited", true): encoding = "noBrackets"
        case ("form", false): encoding = "comma"
        case ("deepObject", _): encoding = "brackets"
        default:
            note(
                node,
                "\(what) in style '\(style)' (not exploded) has no list encoding here: it is sent comma-separated",
                case: operation.caseName, operation: operation.label)
            encoding = "comma"
        }
        setArrayEncoding(encoding, at: node, operation: operation, draft: &draft)
    }

    /// Sets the case's `arrayEncoding` for a Swagger 2.0 `collectionFormat`.
    func chooseArrayEncoding(
        collectionFormat: String, at node: SpecNode, what: String, operation: Operation, draft: inout CaseDraft
    ) {
        let encoding: String
        switch collectionFormat {
        case "multi": encoding = "noBrackets"
        case "csv": encoding = "comma"
        case let other:
            note(
                node, "collectionFormat '\(other)' of \(what) has no list encoding here: it is sent comma-separated",
                case: operation.caseName, operation: operation.label)
            encoding = "comma"
        }
        setArrayEncoding(encoding, at: node, operation: operation, draft: &draft)
    }

    /// A case has one `arrayEncoding`: the first list's; a later list that asks for another is
    /// noted, exactly.
    private func setArrayEncoding(_ encoding: String, at node: SpecNode, operation: Operation, draft: inout CaseDraft) {
        if let chosen = draft.arrayEncoding, chosen != encoding {
            note(
                node, "list parameters of this case use different styles: all are sent as \(chosen), not \(encoding)",
                case: operation.caseName, operation: operation.label)
        } else {
            draft.arrayEncoding = encoding
        }
    }
}
