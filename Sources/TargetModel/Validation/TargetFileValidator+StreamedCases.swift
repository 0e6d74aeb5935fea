import PositionedYAML

/// Cases validated one by one while the file loads (see `TargetFileLoader`), so a large file's
/// cases are checked while their nodes are fresh and never all held at once.
///
/// The result is the same as validating the whole tree: a case's checks depend on nothing else in
/// the file but the API's `auth`, which may come after `cases`; those checks wait for it.
extension TargetFileValidator {
    /// The cases read so far.
    struct StreamedCases {
        /// How many cases were handed over, valid or not.
        var count = 0
        /// The valid ones, in file order, kept or handed on.
        var cases = ReadCases()
        /// Case `auth:` modes to check against the API's auth once it is read.
        var pendingAuth: [(text: String, mark: Mark)] = []
    }

    /// What a case's `auth:` is checked against.
    enum CaseAuthContext {
        /// How cases may name the API's auth, and whether its `auth:` was invalid (then case modes
        /// are not checked).
        case known(apiAuth: APIAuthNames?, hasAuthProblem: Bool)
        /// Not read yet: the check is recorded in ``StreamedCases/pendingAuth``.
        case deferred
    }

    /// Prepares to take cases one by one with ``readStreamedCase(name:node:)``.
    package mutating func beginStreamingCases() {
        streamedCases = StreamedCases()
    }

    /// Validates one case of the root's `cases` mapping.
    package mutating func readStreamedCase(name: Node.Scalar, node: Node) {
        streamedCases?.count += 1
        guard let spec = readCase(name: name, node: node, auth: .deferred) else { return }
        streamedCases?.cases.take(spec, handingTo: caseHandler)
    }

    /// The streamed cases, if `node` (the tree's `cases`) is the empty mapping left where they
    /// were; their auth modes are checked now. `nil` when the cases were not streamed (an
    /// anchored or non-mapping `cases`), to read from the tree.
    mutating func takeStreamedCases(in node: Node, apiAuth: APIAuthNames?, hasAuthProblem: Bool) -> ReadCases? {
        guard let streamed = streamedCases, case .mapping(let entries, _) = node, entries.isEmpty else { return nil }
        streamedCases = nil
        if streamed.count == 0 {
            // Said, not refused: an import of a description with no operations (a webhooks-only
            // OpenAPI 3.1 document) writes it.
            warning("'cases' is empty; the API has no cases to call", at: node.mark)
        }
        for pending in streamed.pendingAuth {
            _ = checkCaseAuth(pending.text, at: pending.mark, apiAuth: apiAuth, hasAuthProblem: hasAuthProblem)
        }
        var cases = streamed.cases
        if case .schemes? = apiAuth {
            // Read before the API's auth, `auth: basic` was taken for the type; it names a scheme.
            for index in cases.kept.indices {
                if case .explicit(let kind) = cases.kept[index].auth { cases.kept[index].auth = .scheme(kind.rawValue) }
            }
        }
        return cases
    }
}
