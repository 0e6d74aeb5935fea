/// Builds the ``Node`` tree from libyaml's events — Yams' recursive `loadNode`, plus the checks a
/// target file needs: duplicate and non-scalar keys, depth, the node count, anchors and the alias
/// budgets (nodes and bytes of text).
///
/// Problems that leave the tree's shape intact (a duplicate key, a bad key, an unknown alias) are
/// collected and loading goes on, so one run reports them all; the rest stop at once.
struct NodeBuilder {
    /// A node as built, with what aliases to it cost.
    private struct Built {
        var node: Node
        /// The nodes in the tree with aliases expanded (the node itself included).
        var expandedSize: Int
        /// The UTF-8 bytes of the scalars in the tree, keys included, with aliases expanded.
        var expandedBytes: Int
        /// The collection levels in the node (0 for a scalar, 1 for `[a]`), aliases expanded.
        var height: Int
    }

    private let parser: LibYAMLParser
    private let limits: YAMLLimits
    /// The problems collected so far that did not stop loading.
    private(set) var problems: [LocatedProblem] = []
    /// The anchors defined so far, each with its size, so an alias costs O(1) and expands nothing.
    private var anchors: [String: Built] = [:]
    /// Anchors whose node is still being built: an alias to one of them would be a cycle.
    private var openAnchors: Set<String> = []
    private var aliasExpansion = 0
    /// The bytes of text aliases have added so far, each counting all the text of what it names.
    private var aliasExpansionBytes = 0
    /// The nodes held so far, each alias counting as one (what it adds is ``aliasExpansion``): a
    /// streamed case's nodes stop counting once the sink has it (see ``loadMapping``).
    private var nodeCount = 0
    /// The anchors defined so far, redefinitions included: a case that defines one is kept alive
    /// by it, so its nodes keep counting.
    private var anchorDefinitions = 0
    /// The entries handed to the sink so far.
    private var streamedCases = 0
    /// The items and entries of the collections being built (see ``ScratchStack``).
    private let items = ScratchStack<Node>()
    private let entries = ScratchStack<Node.Entry>()

    /// Receives the entries of the root mapping's `cases` mapping one at a time, as each is built;
    /// the tree then holds that mapping empty. See ``YAMLLoader/load(_:file:limits:caseSink:)``.
    private let caseSink: CaseSink?

    /// Takes one entry of a streamed mapping: its key and its value.
    typealias CaseSink = (_ key: Node.Scalar, _ value: Node) -> Void

    init(parser: LibYAMLParser, limits: YAMLLimits, caseSink: CaseSink? = nil) {
        self.parser = parser
        self.limits = limits
        self.caseSink = caseSink
    }

    /// Reads the whole stream: exactly one document, then the stream's end.
    /// - Returns: the document's root, or `nil` when the stream holds no document.
    mutating func loadSingleDocument() throws(LocatedProblem) -> Node? {
        guard case .streamStart = try parser.next() else { return nil }
        guard case .documentStart = try parser.next() else { return nil }
        let root = try loadNode(parser.next(), depth: 0).node
        _ = try parser.next()  // the document's end: libyaml allows nothing else here
        if case .documentStart(let mark) = try parser.next() {
            throw LocatedProblem(problem: .multipleDocuments, mark: mark)
        }
        return root
    }

    /// Builds the node `event` starts; `depth` counts the collections around it.
    private mutating func loadNode(_ event: ParsedEvent, depth: Int) throws(LocatedProblem) -> Built {
        try countNode(event)
        switch event {
        case .scalar(let scalar, let anchor):
            let built = Built(node: .scalar(scalar), expandedSize: 1, expandedBytes: scalar.text.utf8.count, height: 0)
            if let anchor { define(anchor, as: built) }
            return built
        case .alias(let name, let mark):
            return try resolveAlias(name, at: mark, depth: depth)
        case .sequenceStart(let anchor, let mark):
            return try loadSequence(anchor: anchor, at: mark, depth: depth + 1)
        case .mappingStart(let anchor, let mark):
            return try loadMapping(anchor: anchor, at: mark, depth: depth + 1)
        case .streamStart, .streamEnd, .documentStart, .documentEnd, .sequenceEnd, .mappingEnd:
            // libyaml's parser never produces these where a node is due.
            throw LocatedProblem(
                problem: .syntax(problem: "expected a node", context: nil, contextMark: nil, hint: nil), mark: nil)
        }
    }

    /// Counts the node `event` starts; throws once the file has more than ``YAMLLimits/maximumNodes``.
    private mutating func countNode(_ event: ParsedEvent) throws(LocatedProblem) {
        nodeCount += 1
        guard nodeCount > limits.maximumNodes else { return }
        let mark: Mark? =
            switch event {
            case .scalar(let scalar, _): scalar.mark
            case .alias(_, let mark), .sequenceStart(_, let mark), .mappingStart(_, let mark): mark
            default: nil
            }
        throw LocatedProblem(problem: .tooManyNodes(limit: limits.maximumNodes), mark: mark)
    }

    private mutating func define(_ anchor: String, as built: Built) {
        anchors[anchor] = built
        anchorDefinitions += 1
    }

    private mutating func resolveAlias(_ name: String, at mark: Mark, depth: Int) throws(LocatedProblem) -> Built {
        guard let target = anchors[name] else {
            problems.append(
                LocatedProblem(
                    problem: openAnchors.contains(name) ? .recursiveAlias(name) : .unknownAlias(name), mark: mark))
            return Built(node: .scalar(Node.Scalar(text: "", mark: mark)), expandedSize: 1, expandedBytes: 0, height: 0)
        }
        aliasExpansion = aliasExpansion.saturatingAdd(target.expandedSize)
        guard aliasExpansion <= limits.maximumAliasExpansion else {
            throw LocatedProblem(problem: .aliasExpansionTooLarge(limit: limits.maximumAliasExpansion), mark: mark)
        }
        // The node count alone lets one large scalar be aliased thousands of times.
        aliasExpansionBytes = aliasExpansionBytes.saturatingAdd(target.expandedBytes)
        guard aliasExpansionBytes <= limits.maximumAliasExpansionBytes else {
            throw LocatedProblem(problem: .aliasTextTooLarge(limit: limits.maximumAliasExpansionBytes), mark: mark)
        }
        guard depth + target.height <= limits.maximumDepth else {
            throw LocatedProblem(problem: .nestingTooDeep(limit: limits.maximumDepth), mark: mark)
        }
        return target
    }

    private mutating func loadSequence(anchor: String?, at mark: Mark, depth: Int) throws(LocatedProblem) -> Built {
        guard depth <= limits.maximumDepth else {
            throw LocatedProblem(problem: .nestingTooDeep(limit: limits.maximumDepth), mark: mark)
        }
        if let anchor { openAnchors.insert(anchor) }
        let start = items.count
        var size = 1
        var bytes = 0
        var height = 1
        while true {
            let event = try parser.next()
            if case .sequenceEnd = event { break }
            let item = try loadNode(event, depth: depth)
            items.push(item.node)
            size = size.saturatingAdd(item.expandedSize)
            bytes = bytes.saturatingAdd(item.expandedBytes)
            height = max(height, item.height + 1)
        }
        let built = Built(
            node: .sequence(items.popArray(from: start), mark), expandedSize: size, expandedBytes: bytes, height: height
        )
        if let anchor {
            openAnchors.remove(anchor)
            define(anchor, as: built)
        }
        return built
    }

    /// Builds a mapping; with a `sink`, each entry goes to it instead of into the mapping, which
    /// is left empty (all checks and limits apply as usual).
    private mutating func loadMapping(anchor: String?, at mark: Mark, depth: Int, sink: CaseSink? = nil)
        throws(LocatedProblem) -> Built
    {
        guard depth <= limits.maximumDepth else {
            throw LocatedProblem(problem: .nestingTooDeep(limit: limits.maximumDepth), mark: mark)
        }
        if let anchor { openAnchors.insert(anchor) }
        let start = entries.count
        var keys = KeyIndex(indexingFromTheStart: sink != nil)
        var size = 1
        var bytes = 0
        var height = 1
        while true {
            let event = try parser.next()
            if case .mappingEnd = event { break }
            // A plain key (nearly all of them) is stored as the scalar it is; boxing it into a
            // `Node` only to unbox it again would cost an allocation per key.
            var keyScalar: Node.Scalar?
            var refusedKey: (kind: String, mark: Mark)?
            if case .scalar(let scalar, nil) = event {
                try countNode(event)
                keyScalar = scalar
                size = size.saturatingAdd(1)
                bytes = bytes.saturatingAdd(scalar.text.utf8.count)
            } else {
                let key = try loadNode(event, depth: depth)
                size = size.saturatingAdd(key.expandedSize)
                bytes = bytes.saturatingAdd(key.expandedBytes)
                height = max(height, key.height + 1)
                switch key.node {
                case .scalar(let scalar): keyScalar = scalar
                case .sequence(_, let keyMark): refusedKey = ("sequence", keyMark)
                case .mapping(_, let keyMark): refusedKey = ("mapping", keyMark)
                }
            }
            let valueEvent = try parser.next()
            // What is held before this entry: a streamed case's nodes are given back after it.
            let heldBefore = (nodes: nodeCount, anchors: anchorDefinitions)
            let value: Built
            if depth == 1, let caseSink, keyScalar?.text == "cases", case .mappingStart(nil, let valueMark) = valueEvent
            {
                // The root's `cases`: each case is handed over as soon as it is built, so the
                // cases are validated while their nodes are fresh in memory, and each one's nodes
                // are freed and reused for the next instead of the whole file being held at once.
                try countNode(valueEvent)
                value = try loadMapping(anchor: nil, at: valueMark, depth: depth + 1, sink: caseSink)
            } else {
                value = try loadNode(valueEvent, depth: depth)
            }
            size = size.saturatingAdd(value.expandedSize)
            bytes = bytes.saturatingAdd(value.expandedBytes)
            height = max(height, value.height + 1)
            guard let keyScalar else {
                if let refusedKey {
                    problems.append(
                        LocatedProblem(problem: .nonScalarKey(kind: refusedKey.kind), mark: refusedKey.mark))
                }
                continue
            }
            let first = entries.withValues(from: start) { keys.insert(keyScalar, in: $0) }
            if let first {
                problems.append(
                    LocatedProblem(problem: .duplicateKey(keyScalar.text, firstDefinedAt: first), mark: keyScalar.mark))
            } else if let sink {
                streamedCases += 1
                guard streamedCases <= limits.maximumCases else {
                    throw LocatedProblem(problem: .tooManyCases(limit: limits.maximumCases), mark: keyScalar.mark)
                }
                sink(keyScalar, value.node)
                // The case is the sink's now and its nodes are freed with `value`, unless an
                // anchor in it keeps them; its key stays (duplicate keys are found by it).
                if anchorDefinitions == heldBefore.anchors { nodeCount = heldBefore.nodes }
            } else {
                entries.push(Node.Entry(key: keyScalar, value: value.node))
            }
        }
        let built = Built(
            node: .mapping(entries.popArray(from: start), mark), expandedSize: size, expandedBytes: bytes,
            height: height)
        if let anchor {
            openAnchors.remove(anchor)
            define(anchor, as: built)
        }
        return built
    }
}

/// Finds duplicate keys: a linear scan while a mapping is small (most are), a table once it is
/// not, so a mapping of 10,000 cases costs O(n), not O(n²).
private struct KeyIndex {
    private static let linearLimit = 12
    /// Each key's first mark, once the mapping is too large for a linear scan.
    private var table: KeyTable?

    /// A streamed mapping keeps no entries to scan, so its keys are indexed from the first one.
    init(indexingFromTheStart: Bool) {
        table = indexingFromTheStart ? KeyTable() : nil
    }

    /// Records `key`, about to be stored after the mapping's `entries` so far; returns the first
    /// key's mark if it is a duplicate.
    mutating func insert(_ key: Node.Scalar, in entries: UnsafeBufferPointer<Node.Entry>) -> Mark? {
        if table == nil {
            let count = key.text.utf8.count
            for offset in entries.indices
            where entries[offset].key.text.utf8.count == count && entries[offset].key.text == key.text {
                return entries[offset].key.mark
            }
            guard entries.count + 1 >= Self.linearLimit else { return nil }
            var index = KeyTable()
            for offset in entries.indices { _ = index.insert(entries[offset].key.text, at: entries[offset].key.mark) }
            _ = index.insert(key.text, at: key.mark)
            table = index
            return nil
        }
        return table!.insert(key.text, at: key.mark)
    }
}

/// The keys of a mapping too large to scan, each with its first mark. 10,000 case names in a
/// `[String: Mark]` took 526 KB (16,384 entries of 32 bytes) at the end of a `list`, its peak;
/// here a key and its mark take 24 bytes, in chunks, and the table 4 bytes a slot. Keys are found
/// by `String`'s own hash (seeded per process, so a hostile file cannot pick colliding names)
/// and equality (canonical equivalence, as a dictionary's keys).
package struct KeyTable {
    private struct Key {
        var text: String
        var mark: Mark
    }

    /// In chunks of 64 (1.5 KiB): a table is made for every mapping of 12 keys or more (a
    /// sample's object, say), most of them small.
    private var keys = ChunkedArray<Key>(chunkShift: 6)
    /// The index of a key plus one, or 0 for none, at the slot its hash picks or the next free
    /// one; a power of two in size, at most three quarters full.
    private var slots = [UInt32](repeating: 0, count: 32)

    package init() {}

    package var count: Int { keys.count }

    /// Adds `text`, at `mark`, unless it is there already: then returns the mark it was first at.
    package mutating func insert(_ text: String, at mark: Mark) -> Mark? {
        let mask = slots.count - 1
        var slot = text.hashValue & mask
        while slots[slot] != 0 {
            let key = keys[Int(slots[slot]) - 1]
            if key.text == text { return key.mark }
            slot = (slot + 1) & mask
        }
        keys.append(Key(text: text, mark: mark))
        slots[slot] = UInt32(keys.count)
        if keys.count * 4 > slots.count * 3 { grow() }
        return nil
    }

    private mutating func grow() {
        var grown = [UInt32](repeating: 0, count: slots.count * 2)
        let mask = grown.count - 1
        for index in keys.indices {
            var slot = keys[index].text.hashValue & mask
            while grown[slot] != 0 { slot = (slot + 1) & mask }
            grown[slot] = UInt32(index + 1)
        }
        slots = grown
    }
}

extension Int {
    /// Sizes of aliased trees grow exponentially with nesting; with a raised limit they could
    /// pass `Int.max`, so they saturate instead of trapping.
    fileprivate func saturatingAdd(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }
}
