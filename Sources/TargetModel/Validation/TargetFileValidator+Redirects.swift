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

    /// The statuses a followed redirect never lets through (libcurl follows these with a
    /// `Location`; a 304 is an answer, not a redirect).
    static let followedRedirectCodes: Set = [301, 302, 303, 307, 308]

    /// Notes a case whose `validation` lists a redirect status, or that captures `Location` from
    /// a default sample that is a redirect (a `Location` of a 201 is an answer of its own).
    mutating func noteRedirectExpectation(
        caseName: String, mark: Mark, validation: ValidationSpec?, captures: [Capture], samples: [NamedSample],
        redirects: RedirectPolicy?
    ) {
        var reason: String?
        if case .customCodes(let codes)? = validation,
            let code = codes.first(where: Self.followedRedirectCodes.contains)
        {
            reason = "its validation lists \(code)"
        } else if case .response(let status, _, _)? = samples.first?.sample.outcome,
            Self.followedRedirectCodes.contains(status),
            let capture = captures.first(where: {
                if case .header(let name) = $0.source { name.lowercased() == "location" } else { false }
            })
        {
            reason = "it captures '\(capture.name)' from the Location header of its \(status) sample"
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
