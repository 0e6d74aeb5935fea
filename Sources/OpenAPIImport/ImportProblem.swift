import PositionedYAML
import TargetModel
import TextSafety

/// Something wrong with the OpenAPI document itself: where it is (a JSON pointer and the line and
/// column in the spec file) and what is wrong. Any one of them means the spec is invalid (exit 65).
package struct SpecProblem: Error, Sendable, Hashable {
    /// The JSON pointer of the offending node, `#/paths/~1users/get/parameters/0`.
    package var pointer: String
    /// Where the node starts in the spec file.
    package var mark: Mark
    /// What is wrong.
    package var message: String

    package init(pointer: String, mark: Mark, message: String) {
        self.pointer = pointer
        self.mark = mark
        self.message = message
    }
}

/// Why an import did not produce a file.
package enum OpenAPIImportError: Error, Sendable {
    /// The document could not be read as YAML or JSON: the loader's diagnostics.
    case unreadable([Diagnostic])
    /// The document is not a valid OpenAPI description: every problem found.
    case invalidSpec([SpecProblem])
    /// `--only` selected no operation (the patterns given).
    case nothingSelected([String])
    /// The target file made would be over what the loader reads (``YAMLLimits/default``): its
    /// size in bytes and its number of cases.
    case outputTooLarge(bytes: Int, cases: Int)
}

/// What the importer could not carry over into the target file, and where: each becomes a
/// comment in the file (at the case it concerns, or at the top) and a line on stderr.
package struct ImportNote: Sendable, Hashable {
    /// The case the note concerns, or `nil` for the API as a whole.
    package var caseName: String?
    /// The spec's operation (`GET /users/{id}`), when the note concerns one.
    package var operation: String?
    /// The JSON pointer of what could not be mapped.
    package var pointer: String
    /// What happened, in one line.
    package var message: String
    /// Whether the whole operation was left out.
    package var skipsOperation: Bool

    package init(caseName: String?, operation: String?, pointer: String, message: String, skipsOperation: Bool = false)
    {
        self.caseName = caseName
        self.operation = operation
        self.pointer = pointer
        self.message = message
        self.skipsOperation = skipsOperation
    }
}

extension ImportNote {
    /// What kind of note this is (``TextSafety/MessageKind``): notes that differ only in the
    /// names they give are counted together.
    package var kind: String { MessageKind.of(message) }
}
