import TargetModel

/// One recorded sample put into a target file's text at its node (see ``SampleLayout``): the
/// sample replaced, or added where the case's samples are, in the style the file uses there.
///
/// - The default sample (no name) replaces `sample:`'s value, or the first of `samples:`; a case
///   with neither gets `sample:`.
/// - A named sample replaces the entry of `samples:` with that name, or is added after its last
///   entry; a case with `sample:` gets `samples:` with the old sample first as `default` (the name
///   the loader gives a lone sample, so `--sample default` still finds it); a case with neither
///   gets `samples:` with the one entry.
/// - A flow node (`{json: {...}}`) or a scalar is replaced by a flow map on one line; a block map
///   by a block map at the same indentation; an anchor (`&name`) stays on the new value.
struct SampleEdit {
    let bytes: [UInt8]
    let layout: SampleLayout
    let file: String

    /// The text with `value` recorded as the sample `name` (`nil`: the default one).
    func recording(_ value: YAMLText, as name: String?) throws(TargetFileEditError) -> [UInt8] {
        let sample = layout.member("sample")
        if name == nil || (sample != nil && name == "default") {
            if let sample { return try replacing(sample.value, with: value) }
            if let first = layout.samples?.first { return try replacing(first.value, with: value) }
            return try adding(YAMLText.Entry("sample", value))
        }
        guard let name else { return bytes }
        if let samples = layout.samples, let container = layout.member("samples") {
            if let entry = samples.first(where: { $0.key == name }) { return try replacing(entry.value, with: value) }
            return try appending(YAMLText.Entry(name, value), to: container.value, after: samples)
        }
        if let sample { return try splitting(sample, adding: YAMLText.Entry(name, value)) }
        return try adding(YAMLText.Entry("samples", .map([YAMLText.Entry(name, value)])))
    }

    /// The spaces each level is indented by: the case's members' beyond its name, else 2.
    private var step: Int {
        guard !layout.caseNode.isFlow, let first = layout.members.first else { return 2 }
        return max(1, first.keyColumn - layout.caseKeyColumn)
    }

    private func replacing(_ node: SampleLayout.Node, with value: YAMLText) throws(TargetFileEditError) -> [UInt8] {
        let anchor = node.anchor.map { "&" + $0 } ?? ""
        var text: String
        if node.isFlow || !node.isCollection {
            text = (anchor.isEmpty ? "" : anchor + " ") + (try flow(value))
        } else {
            guard case .map(let members) = value else { return bytes }
            let block = String(YAMLText.renderBlockMembers(members, indent: node.column, step: step).dropLast())
            text = anchor.isEmpty ? String(block.dropFirst(node.column)) : anchor + "\n" + block
        }
        return splice(text, replacing: node.start..<node.end)
    }

    /// Adds `entry` as the case's last member.
    private func adding(_ entry: YAMLText.Entry) throws(TargetFileEditError) -> [UInt8] {
        let caseNode = layout.caseNode
        if caseNode.isFlow, let closing = caseNode.closing {
            return splice(", " + YAMLText.key(entry.key) + ": " + (try flow(entry.value)), replacing: closing..<closing)
        }
        let indent = layout.members.first?.keyColumn ?? (layout.caseKeyColumn + step)
        let fits = YAMLText.unboundedFlow(entry.value).map { $0.utf8.count + indent + entry.key.utf8.count + 2 <= 100 }
        return try insertingLine(entry, indent: indent, isFlow: fits ?? false, after: caseNode.end)
    }

    /// Adds `entry` after the last of `entries` in the map `container` (`samples:`).
    private func appending(
        _ entry: YAMLText.Entry, to container: SampleLayout.Node, after entries: [SampleLayout.Member]
    ) throws(TargetFileEditError) -> [UInt8] {
        if container.isFlow, let closing = container.closing {
            let separator = entries.isEmpty ? "" : ", "
            return splice(
                separator + YAMLText.key(entry.key) + ": " + (try flow(entry.value)), replacing: closing..<closing)
        }
        guard let last = entries.last, let first = entries.first else { return bytes }
        let isFlow = first.value.isFlow || !first.value.isCollection
        return try insertingLine(entry, indent: first.keyColumn, isFlow: isFlow, after: last.value.end)
    }

    /// `sample: X` made `samples:` with `default: X` and `entry` under it; X's text kept, indented one step more.
    private func splitting(
        _ sample: SampleLayout.Member, adding entry: YAMLText.Entry
    ) throws(TargetFileEditError) -> [UInt8] {
        if layout.caseNode.isFlow {
            // In a flow case the new map is a flow map too: `samples: {default: X, NAME: …}`.
            let old = String(decoding: bytes[sample.keyEnd..<sample.value.end], as: UTF8.self)
            let text = "samples: {default" + old + ", " + YAMLText.key(entry.key) + ": " + (try flow(entry.value)) + "}"
            return splice(text, replacing: sample.keyStart..<sample.value.end, convertingLineEndings: false)
        }
        let lineEnding = CaseAppender.lineEnding(in: bytes, before: sample.keyStart)
        let indent = sample.keyColumn + step
        let pad = String(repeating: " ", count: step)
        // The old sample's last line is taken whole, so its trailing comment stays with it.
        let end = bytes[sample.value.end...].firstIndex { $0 == 0x0A || $0 == 0x0D } ?? bytes.count
        var old: [UInt8] = []
        var index = sample.keyEnd
        while index < end {
            old.append(bytes[index])
            let isBreak =
                bytes[index] == 0x0A || (bytes[index] == 0x0D && (index + 1 == bytes.count || bytes[index + 1] != 0x0A))
            if isBreak, index + 1 < end, bytes[index + 1] != 0x0A, bytes[index + 1] != 0x0D {
                old += Array(pad.utf8)
            }
            index += 1
        }
        let isFlow = sample.value.isFlow || !sample.value.isCollection
        guard let added = YAMLText.renderMember(entry, indent: indent, step: step, isFlow: isFlow) else {
            throw longKey()
        }
        let converted = { (text: String) in lineEnding == "\n" ? text : text.replacing("\n", with: lineEnding) }
        var text = converted("samples:\n" + String(repeating: " ", count: indent) + "default")
        text += String(decoding: old, as: UTF8.self) + converted("\n" + added.dropLast())
        return splice(text, replacing: sample.keyStart..<end, convertingLineEndings: false)
    }

    /// `entry` on lines of its own after the line `offset` ends (its trailing comment stays there).
    private func insertingLine(
        _ entry: YAMLText.Entry, indent: Int, isFlow: Bool, after offset: Int
    ) throws(TargetFileEditError) -> [UInt8] {
        guard let member = YAMLText.renderMember(entry, indent: indent, step: step, isFlow: isFlow) else {
            throw longKey()
        }
        let lineBreak = bytes[offset...].firstIndex { $0 == 0x0A || $0 == 0x0D } ?? bytes.count
        return splice("\n" + member.dropLast(), replacing: lineBreak..<lineBreak)
    }

    private func flow(_ value: YAMLText) throws(TargetFileEditError) -> String {
        guard let text = YAMLText.unboundedFlow(value) else { throw longKey() }
        return text
    }

    private func splice(_ text: String, replacing range: Range<Int>, convertingLineEndings: Bool = true) -> [UInt8] {
        let lineEnding = CaseAppender.lineEnding(in: bytes, before: range.lowerBound)
        let converted = convertingLineEndings && lineEnding != "\n" ? text.replacing("\n", with: lineEnding) : text
        return Array(bytes[..<range.lowerBound]) + Array(converted.utf8) + Array(bytes[range.upperBound...])
    }

    private func longKey() -> TargetFileEditError {
        TargetFileEditError(
            .usage,
            "cannot record the sample in \(file): the response has a key longer than \(YAMLText.maximumSimpleKeyLength) bytes, which the file's flow style ({...}) cannot hold; write the sample in block style first"
        )
    }
}
