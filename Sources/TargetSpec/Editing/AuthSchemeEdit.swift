import CYAML
import PositionedYAML
import TargetModel
import TextSafety

/// The auth scheme `request --save-as` gives a saved case for the credential `-u` or `--bearer`
/// sent: one of the API's schemes of that type when it has one, else a new scheme added to the
/// API's `auth` that reads its own variables (`${secret:MOYA_<API>_USER}`, `${secret:MOYA_<API>_PASSWORD}`,
/// `${secret:MOYA_<API>_TOKEN}`), so the saved case can be called with `-u`/`--bearer` again,
/// with the variables set, and checked.
///
/// Added as a text edit that keeps every other byte: an API without `auth` gets
/// `auth: {schemes: {basic: ...}}` (no default: its other cases still send none); one with
/// named `schemes` gets the scheme added to them; a one-scheme `auth: {type: bearer, ...}`
/// becomes `{default: bearer, schemes: {bearer: <as it was>, basic: ...}}`, so every other case
/// sends what it sent before (checked on the result).
package enum AuthSchemeEdit {
    /// A credential type a saved case can read from a scheme.
    package enum Kind: String, Sendable {
        case basic
        case bearer
        case digest
    }

    /// What the edit did.
    package struct Result: Sendable {
        /// The file's bytes, edited (the same bytes when the API had a scheme of the type).
        package var bytes: [UInt8]
        /// The case's `auth:` value: the scheme's name (or its type, for a one-scheme auth).
        package var caseAuth: String
        /// The variables the new scheme reads, for the user to set (empty when none was added).
        package var variables: [RenderedCase.SecretReference]
        /// The API as the edited file loads.
        package var api: APISpec
    }

    /// `bytes` (the text of `api`'s file, which loads without errors) with a scheme of `kind`.
    package static func adding(
        _ kind: Kind, for api: APISpec, to bytes: [UInt8], file: String, directory: String
    ) throws(TargetFileEditError) -> Result {
        let wanted: AuthSpec.Kind =
            switch kind {
            case .basic: .basic
            case .bearer: .bearer
            case .digest: .digest
            }
        if let existing = api.authSchemes.first(where: { $0.auth.kind == wanted }) {
            return Result(bytes: bytes, caseAuth: existing.name, variables: [], api: api)
        }
        let layout = try AuthLayout.read(bytes, file: file)
        var name = kind.rawValue
        var number = 2
        while api.authSchemes.contains(where: { $0.name == name }) {
            name = kind.rawValue + "\(number)"
            number += 1
        }
        let (map, variables) = scheme(kind, apiName: api.name)
        guard let scheme = YAMLText.unboundedFlow(map) else {
            throw refusal(file, "its scheme cannot be written on one line")
        }
        let lineEnding = CaseAppender.lineEnding(in: bytes, before: layout.casesLineStart)
        var edited: [UInt8]
        if let auth = layout.auth {
            if let schemes = auth.schemes {
                guard let column = schemes.firstKeyColumn else {
                    throw refusal(file, "its auth 'schemes' (line \(schemes.line)) is written in flow style ({...})")
                }
                // After the last scheme's line.
                let insertion = lineEnd(after: schemes.contentEnd, in: bytes)
                let text = String(repeating: " ", count: column) + name + ": " + scheme + lineEnding
                edited =
                    Array(bytes[..<insertion.offset]) + (insertion.needsBreak ? Array(lineEnding.utf8) : [])
                    + Array(text.utf8) + bytes[insertion.offset...]
            } else {
                let step = auth.step ?? 2
                let indent = String(repeating: " ", count: auth.keyColumn + step)
                let inner = String(repeating: " ", count: auth.keyColumn + 2 * step)
                let typeName = api.authSchemes.first?.name ?? "api"
                let head =
                    indent + "default: " + typeName + lineEnding + indent + "schemes:" + lineEnding
                    + inner + name + ": " + scheme + lineEnding
                if auth.isFlow {
                    // `auth: {type: ...}  # comment` → the block, the old map last so the comment stays on its line.
                    let original = String(decoding: bytes[auth.valueStart..<auth.valueEnd], as: UTF8.self)
                    let reindented = original.replacing(
                        lineEnding, with: lineEnding + String(repeating: " ", count: 2 * step))
                    let text = lineEnding + head + inner + typeName + ": " + reindented
                    var start = auth.valueStart
                    while start > 0, bytes[start - 1] == UInt8(ascii: " ") || bytes[start - 1] == UInt8(ascii: "\t") {
                        start -= 1
                    }
                    edited = Array(bytes[..<start]) + Array(text.utf8) + bytes[auth.valueEnd...]
                } else {
                    // A block map: its lines move under the scheme's name, two steps further in.
                    let end = lineEnd(after: auth.valueEnd, in: bytes)
                    let original = String(decoding: bytes[auth.valueLineStart..<end.offset], as: UTF8.self)
                    var lines = original.split(separator: lineEnding, omittingEmptySubsequences: false).map(String.init)
                    if lines.last == "" { lines.removeLast() }
                    let moved = lines.map { line in
                        line.allSatisfy { $0 == " " } ? line : String(repeating: " ", count: 2 * step) + line
                    }
                    let text =
                        head + inner + typeName + ":" + lineEnding
                        + moved.joined(separator: lineEnding) + lineEnding
                    edited = Array(bytes[..<auth.valueLineStart]) + Array(text.utf8) + bytes[end.offset...]
                }
            }
        } else {
            // Before the `cases` key.
            let step = layout.step
            let text =
                "auth:" + lineEnding + String(repeating: " ", count: step) + "schemes:" + lineEnding
                + String(repeating: " ", count: 2 * step) + name + ": " + scheme + lineEnding
            edited = Array(bytes[..<layout.casesLineStart]) + Array(text.utf8) + bytes[layout.casesLineStart...]
        }
        let changed = try checkMeaning(
            of: edited, against: api, newScheme: name, kind: wanted, file: file, directory: directory)
        return Result(bytes: edited, caseAuth: name, variables: variables, api: changed)
    }

    /// The new scheme's map, and the variables it reads (every value a `${secret:VAR}`).
    package static func scheme(_ kind: Kind, apiName: String) -> (YAMLText, [RenderedCase.SecretReference]) {
        func reference(_ part: String, _ what: String) -> (String, RenderedCase.SecretReference) {
            let variable = NewCase.secretVariable(apiName: apiName, part: part)
            return ("${secret:\(variable)}", RenderedCase.SecretReference(header: what, variable: variable))
        }
        switch kind {
        case .basic, .digest:
            let (user, userReference) = reference("user", "the user name")
            let (password, passwordReference) = reference("password", "the password")
            return (
                .map([
                    YAMLText.Entry("type", .string(kind.rawValue)), YAMLText.Entry("username", .string(user)),
                    YAMLText.Entry("password", .string(password))
                ]),
                [userReference, passwordReference]
            )
        case .bearer:
            let (token, tokenReference) = reference("token", "the bearer token")
            return (
                .map([YAMLText.Entry("type", .string(kind.rawValue)), YAMLText.Entry("token", .string(token))]),
                [tokenReference]
            )
        }
    }

    /// The edited file loads, has the new scheme, and every case sends the credentials it sent.
    private static func checkMeaning(
        of edited: [UInt8], against api: APISpec, newScheme: String, kind: AuthSpec.Kind, file: String,
        directory: String
    ) throws(TargetFileEditError) -> APISpec {
        let after = TargetFileLoader.load(bytes: edited, file: file, directory: directory)
        guard let changed = after.api, !after.hasErrors else {
            throw TargetFileEditError(
                .invalidResult,
                "adding the auth scheme '\(newScheme)' to \(file) does not validate; nothing was written (this is a bug in moya-cli: please report it with the file)",
                diagnostics: after.renderedDiagnostics())
        }
        guard changed.authSchemes.first(where: { $0.name == newScheme })?.auth.kind == kind else {
            throw TargetFileEditError(
                .invalidResult, "adding the auth scheme '\(newScheme)' to \(file) did not add it; nothing was written")
        }
        // The lines below the edit moved: compared without their places. `auth: bearer` names
        // the type before and the scheme after: what it sends is compared.
        func withoutAuth(_ spec: CaseSpec) -> CaseSpec {
            var spec = spec
            spec.auth = .inherited
            return spec
        }
        for (old, new) in zip(api.cases, changed.cases)
        where positionFree(withoutAuth(old)) != positionFree(withoutAuth(new))
            || positionFree(api.auth(for: old.auth) as Any) != positionFree(changed.auth(for: new.auth) as Any)
        {
            throw TargetFileEditError(
                .invalidResult,
                "adding the auth scheme '\(newScheme)' to \(file) would change what the case '\(old.name)' sends; nothing was written"
            )
        }
        guard api.cases.count == changed.cases.count else {
            throw TargetFileEditError(
                .invalidResult,
                "adding the auth scheme '\(newScheme)' to \(file) would change its cases; nothing was written")
        }
        return changed
    }

    /// A value's description without the places (``Mark``) it holds, to compare what a file says
    /// before and after lines moved.
    private static func positionFree(_ value: Any) -> String {
        if value is Mark { return "" }
        let mirror = Mirror(reflecting: value)
        guard !mirror.children.isEmpty else { return String(reflecting: value) }
        var parts = mirror.children.map { child in (child.label ?? "") + ":" + positionFree(child.value) }
        // A dictionary's or a set's order is not its content.
        if mirror.displayStyle == .dictionary || mirror.displayStyle == .set { parts.sort() }
        return "\(mirror.subjectType)(" + parts.joined(separator: ",") + ")"
    }

    /// The offset after the line break that ends the line holding `offset`, or the file's end
    /// (then `needsBreak`: the file has no final line break).
    private static func lineEnd(after offset: Int, in bytes: [UInt8]) -> (offset: Int, needsBreak: Bool) {
        guard let lineBreak = bytes[offset...].firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) else {
            return (bytes.count, true)
        }
        let isCRLF = bytes[lineBreak] == 0x0D && lineBreak + 1 < bytes.count && bytes[lineBreak + 1] == 0x0A
        return (lineBreak + (isCRLF ? 2 : 1), false)
    }

    private static func refusal(_ file: String, _ why: String) -> TargetFileEditError {
        TargetFileEditError(
            .invalidTargetFile,
            "cannot add an auth scheme to \(file) for the saved case: \(why); write its auth as a block map (see AUTHENTICATION in moya-targets(5))"
        )
    }
}

/// Where the root map's `auth` and `cases` keys are in a target file's text (offsets in bytes).
struct AuthLayout {
    struct Auth {
        var keyColumn: Int
        var isFlow: Bool
        /// The value's first byte and the byte after its last token.
        var valueStart: Int
        var valueEnd: Int
        /// The start of the line the value's first token is on.
        var valueLineStart: Int
        /// The value's first key's column minus the `auth` key's (a block map).
        var step: Int?
        var schemes: Schemes?
    }

    struct Schemes {
        var line: Int
        /// The column of the first scheme's name; `nil` for a flow map.
        var firstKeyColumn: Int?
        /// The byte after the last scheme's last token.
        var contentEnd: Int
    }

    var auth: Auth?
    /// The start of the `cases` key's line.
    var casesLineStart: Int
    /// The file's indentation step (the first block map's), 2 when none is seen.
    var step: Int

    static func read(_ bytes: [UInt8], file: String) throws(TargetFileEditError) -> AuthLayout {
        let refusal = TargetFileEditError(
            .invalidTargetFile, "cannot add an auth scheme to \(file): it cannot be read as a block map")
        let result: AuthLayout? = bytes.withUnsafeBufferPointer { buffer in
            let events = EventReader(buffer)
            let lines = LineStarts(buffer)
            func offset(_ mark: (line: Int, column: Int)) -> Int { lines.offset(line: mark.line, column: mark.column) }
            guard events.next()?.type == YAML_STREAM_START_EVENT, events.next()?.type == YAML_DOCUMENT_START_EVENT,
                let root = events.next(), root.type == YAML_MAPPING_START_EVENT, !root.isFlow
            else { return nil }
            var layout = AuthLayout(auth: nil, casesLineStart: -1, step: 2)
            /// Reads past a node, returning the end of its last token and its first key's column.
            func skip(_ first: Event) -> (end: (line: Int, column: Int), firstKey: Int?)? {
                switch first.type {
                case YAML_SCALAR_EVENT, YAML_ALIAS_EVENT: return (first.end, nil)
                case YAML_MAPPING_START_EVENT, YAML_SEQUENCE_START_EVENT:
                    var last = first.end
                    var firstKey: Int?
                    while let event = events.next() {
                        if event.type == YAML_MAPPING_END_EVENT || event.type == YAML_SEQUENCE_END_EVENT {
                            return (first.isFlow ? event.end : last, firstKey)
                        }
                        if firstKey == nil { firstKey = event.start.column }
                        guard let inner = skip(event) else { return nil }
                        last = inner.end
                    }
                    return nil
                default: return nil
                }
            }
            while let key = events.next(), key.type != YAML_MAPPING_END_EVENT {
                guard let value = events.next() else { return nil }
                if key.type == YAML_SCALAR_EVENT, key.text == "cases" {
                    layout.casesLineStart = offset((key.start.line, 0))
                    guard skip(value) != nil else { return nil }
                } else if key.type == YAML_SCALAR_EVENT, key.text == "auth", value.type == YAML_MAPPING_START_EVENT {
                    var auth = Auth(
                        keyColumn: key.start.column, isFlow: value.isFlow, valueStart: offset(value.start),
                        valueEnd: 0, valueLineStart: 0)
                    var last = value.end
                    var firstKey: (line: Int, column: Int)?
                    while let member = events.next() {
                        if member.type == YAML_MAPPING_END_EVENT {
                            if value.isFlow { last = member.end }
                            break
                        }
                        if firstKey == nil { firstKey = member.start }
                        guard let memberValue = events.next() else { return nil }
                        if member.type == YAML_SCALAR_EVENT, member.text == "schemes",
                            memberValue.type == YAML_MAPPING_START_EVENT
                        {
                            guard let inner = skip(memberValue) else { return nil }
                            auth.schemes = Schemes(
                                line: member.start.line + 1, firstKeyColumn: memberValue.isFlow ? nil : inner.firstKey,
                                contentEnd: offset(inner.end))
                            last = inner.end
                        } else {
                            guard let inner = skip(memberValue) else { return nil }
                            last = inner.end
                        }
                    }
                    auth.valueEnd = offset(last)
                    auth.valueLineStart = offset(((value.isFlow ? nil : firstKey?.line) ?? value.start.line, 0))
                    if !value.isFlow, let firstKey, firstKey.column > key.start.column {
                        auth.step = firstKey.column - key.start.column
                        layout.step = firstKey.column - key.start.column
                    }
                    layout.auth = auth
                } else {
                    guard skip(value) != nil else { return nil }
                }
            }
            return layout.casesLineStart >= 0 ? layout : nil
        }
        guard let result else { throw refusal }
        return result
    }
}
