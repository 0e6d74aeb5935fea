import PositionedYAML

/// `redirects: follow | none | N`, on the API and on a case, and the warning for a case that
/// expects a 3xx its followed redirects would never show.
extension TargetFileValidator {
    /// A case whose validation or captures expect a redirect's own answer.
    struct RedirectExpectation {
        var caseName: String
        var mark: Mark
        /// What expects it: "validation lists 302", "captures header Location".
        var reason: String
        /// The case's own `redirects:`, if it has one.
        var redirects: RedirectPolicy?
    }

    /// `follow`, `none`, or the most redirects followed (0 to `RedirectPolicy.maximumLimit`).
    mutating func readRedirects(_ node: Node) -> RedirectPolicy? {
        let expected = "follow, none, or the most redirects to follow (a number)"
        guard case .scalar(let scalar) = node else {
            typeError(expected: expected, found: node)
            return nil
        }
        switch scalar.text {
        case "follow": return .follow
        case "none": return RedirectPolicy.none
        default: break
        }
        guard let count = Int(scalar.text), scalar.isPlain else {
            error("expected \(expected) for 'redirects', found \(Self.describe(node))", at: node.mark)
            return nil
        }
        guard (0...RedirectPolicy.maximumLimit).contains(count) else {
            error(
                "'redirects' must be follow, none or 0 to \(RedirectPolicy.maximumLimit), found \(count)",
                at: node.mark)
            return nil
        }
        return .limit(count)
    }

    /// Notes a case whose `validation` lists a 3xx code or whose `captures` read `Location`.
    mutating func noteRedirectExpectation(
        caseName: String, mark: Mark, validation: ValidationSpec?, captures: [Capture], redirects: RedirectPolicy?
    ) {
        var reason: String?
        if case .customCodes(let codes)? = validation, let code = codes.first(where: { (300...399).contains($0) }) {
            reason = "its validation lists \(code)"
        } else if let capture = captures.first(where: {
            if case .header(let name) = $0.source { name.lowercased() == "location" } else { false }
        }) {
            reason = "it captures '\(capture.name)' from the Location header"
        }
        guard let reason else { return }
        redirectExpectations.append(
            RedirectExpectation(caseName: caseName, mark: mark, reason: reason, redirects: redirects))
    }

    /// Warns, once the API's `redirects:` is known, about each noted case whose redirects are
    /// followed: it passes an offline check and fails live, as the 3xx it expects is never seen.
    mutating func checkRedirectExpectations(apiRedirects: RedirectPolicy?) {
        for expectation in redirectExpectations where (expectation.redirects ?? apiRedirects ?? .follow).follows {
            warning(
                "case '\(expectation.caseName)' expects a redirect's answer (\(expectation.reason)) but follows redirects, so a live call never sees it; add 'redirects: none' to the case",
                at: expectation.mark)
        }
        redirectExpectations = []
    }
}
