/// Finds every spelling of a set of secrets in a text and replaces it, in one pass, the longest
/// first at each position: a secret inside another vanishes with it, and the placeholder is never
/// matched again. What every redactor uses (logs, `curl` commands, reports, and every file written
/// into a target folder), so a secret has the same spellings everywhere.
package struct SecretMatcher: Sendable, Hashable {
    /// The shortest value (in UTF-8 bytes) matched: as a substring a shorter one would mangle
    /// unrelated text.
    package static let minimumSecretLength = 4
    /// What replaces a secret in logs and in files written into a target folder.
    package static let placeholder = "<redacted>"

    /// For each first byte, the forms starting with it, longest first.
    private var formsByFirstByte: [[[UInt8]]]
    package private(set) var isEmpty: Bool

    package init(secrets: [String]) {
        var forms = Set<[UInt8]>()
        for secret in secrets where secret.utf8.count >= SecretMatcher.minimumSecretLength {
            for form in SecretSpellings.of(secret) { forms.insert(Array(form.utf8)) }
        }
        isEmpty = forms.isEmpty
        // Most targets have no secret: no table then (only used when there is one). `check`
        // makes a redactor per check, and the 256 empty rows were most of its cost.
        guard !forms.isEmpty else {
            formsByFirstByte = []
            return
        }
        var table = [[[UInt8]]](repeating: [], count: 256)
        for form in forms.sorted(by: { $0.count > $1.count }) { table[Int(form[0])].append(form) }
        formsByFirstByte = table
    }

    package func replacingMatches(in text: String, with placeholder: [UInt8]) -> String {
        guard !isEmpty else { return text }
        var text = text
        return text.withUTF8 { replacingMatches(in: $0, with: placeholder) }
    }

    private func replacingMatches(in bytes: UnsafeBufferPointer<UInt8>, with placeholder: [UInt8]) -> String {
        var output: [UInt8] = []
        var index = 0
        var copiedUpTo = 0
        let count = bytes.count
        scanning: while index < count {
            for form in formsByFirstByte[Int(bytes[index])] where form.count <= count - index {
                var offset = 1
                while offset < form.count && bytes[index + offset] == form[offset] { offset += 1 }
                guard offset == form.count else { continue }
                if output.isEmpty { output.reserveCapacity(count) }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copiedUpTo..<index]))
                output.append(contentsOf: placeholder)
                index += form.count
                copiedUpTo = index
                continue scanning
            }
            index += 1
        }
        guard copiedUpTo > 0 else { return String(decoding: bytes, as: UTF8.self) }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copiedUpTo..<count]))
        return String(decoding: output, as: UTF8.self)
    }
}
