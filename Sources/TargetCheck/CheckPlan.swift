import Paging
import TargetModel
import TargetSpec

#if canImport(Glibc)
import Glibc
#endif

/// One thing `check` checks: a case with one argument set (an example, or none when it needs none).
package struct CheckItem: Sendable {
    /// The API the case belongs to.
    package var api: APISpec {
        get { sharedAPI.api }
        set { sharedAPI = SharedAPI(newValue) }
    }
    /// The API, held once for all the items of a plan that check it: stored in every item, it
    /// would be most of a large plan's memory (`make bench`, check of 10,000 cases).
    private var sharedAPI: SharedAPI
    /// The case.
    package var spec: CaseSpec
    /// The 1-based example number, or `nil` when the case needs no example (or has none).
    package var exampleNumber: Int?
    /// The bound arguments, defaults filled in.
    package var arguments: [String: ArgumentValue]
    /// For a chained example: the plan index of the step it runs after.
    package var afterIndex: Int?
    /// What few items have (a reason not to check, a chain), boxed: as stored fields they made
    /// every item of a plan of 10,000 cases 72 bytes larger, for the whole run. Copied on write.
    private var rare: CopyOnWriteBox<Rare>?

    /// Why the case cannot be checked (values without defaults and no examples), if so.
    package var notCoveredReason: String? {
        get { rare?.value.notCoveredReason }
        set { updateRare { $0.notCoveredReason = newValue } }
    }
    /// For a chained example: its `after:` and `with:` (its arguments are bound once the steps
    /// before it ran).
    package var chain: ChainedExample? {
        get { rare?.value.chain }
        set { updateRare { $0.chain = newValue } }
    }
    /// For a chained example being run: what the steps before it captured (their secrets are
    /// redacted in whatever this item reports).
    package var inheritedCaptures: CapturedValues? {
        get { rare?.value.inheritedCaptures }
        set { updateRare { $0.inheritedCaptures = newValue } }
    }

    /// The fields most items leave empty.
    private struct Rare {
        var notCoveredReason: String?
        var chain: ChainedExample?
        var inheritedCaptures: CapturedValues?
    }

    /// Changes the rare fields of this item only: a box another item shares is copied first
    /// (`CopyOnWriteBox`).
    private mutating func updateRare(_ change: (inout Rare) -> Void) {
        if rare == nil { rare = CopyOnWriteBox(Rare()) }
        change(&rare!.value)
    }

    /// An item of `api` (given as the box its other items share).
    init(
        api: SharedAPI, spec: CaseSpec, exampleNumber: Int?, arguments: [String: ArgumentValue],
        notCoveredReason: String? = nil,
        chain: ChainedExample? = nil
    ) {
        sharedAPI = api
        self.spec = spec
        self.exampleNumber = exampleNumber
        self.arguments = arguments
        if notCoveredReason != nil || chain != nil {
            rare = CopyOnWriteBox(Rare(notCoveredReason: notCoveredReason, chain: chain))
        }
    }

    /// An item of `api`.
    init(
        api: APISpec, spec: CaseSpec, exampleNumber: Int?, arguments: [String: ArgumentValue],
        notCoveredReason: String? = nil,
        chain: ChainedExample? = nil
    ) {
        self.init(
            api: SharedAPI(api), spec: spec, exampleNumber: exampleNumber, arguments: arguments,
            notCoveredReason: notCoveredReason,
            chain: chain)
    }

    /// `api.case` or `api.case#n`: stable, so shards and reports can rely on it.
    package var id: String {
        let base = api.name + "." + spec.name
        return exampleNumber.map { base + "#\($0)" } ?? base
    }

    /// The arguments in declared order, as `name: value`, for reports.
    var orderedArguments: [(name: String, value: ArgumentValue)] {
        spec.values.compactMap { value in arguments[value.name].map { (value.name, $0) } }
    }
}

/// An API shared by the items that check it.
final class SharedAPI: Sendable {
    let api: APISpec

    init(_ api: APISpec) {
        self.api = api
    }
}

/// The items `check` runs: every selected case with each of its examples, filtered and sharded.
package struct CheckPlan: Sendable {
    /// The items, in plan order: the APIs' order, then their cases', then their examples'.
    package var items: [CheckItem]

    /// Why a plan cannot be made.
    package enum Problem: Error, CustomStringConvertible {
        /// An `only` pattern matches no case; `cases` are the ones there are.
        case onlyMatchesNothing(pattern: String, cases: [String])

        package var description: String {
            switch self {
            case .onlyMatchesNothing(let pattern, let cases):
                "--only '\(pattern)' matches no case; cases: \(cases.joined(separator: ", "))"
            }
        }
    }

    /// Builds the plan for `apis` (in order): cases whose name or `api.case` matches a shell
    /// pattern of `only` (all when empty) and none of `skip`, then the items of `shard`.
    ///
    /// A chained example brings the steps it runs after into the plan, even when `only` or
    /// `skip` would leave them out, and a chain stays in one shard (its first step's).
    package init(apis: [APISpec], only: [String] = [], skip: [String] = [], shard: CheckShard? = nil) throws(Problem) {
        var all: [CheckItem] = []
        var selected: [Bool] = []
        // Every case's items, reserved at once: the arrays hold no growth slack (half of them, at worst).
        let count = apis.reduce(0) { $0 + $1.cases.reduce(0) { $0 + max(1, $1.exampleSteps.count) } }
        all.reserveCapacity(count)
        selected.reserveCapacity(count)
        var unmatched = Set(only)
        var hasChains = false
        for api in apis {
            let shared = SharedAPI(api)
            for spec in api.cases {
                var isSelected = true
                // The names patterns match, made only when there are patterns (most runs have none).
                if !only.isEmpty || !skip.isEmpty {
                    let names = [spec.name, api.name + "." + spec.name]
                    if !only.isEmpty {
                        let matches = only.filter { pattern in names.contains { Self.matches(pattern, $0) } }
                        unmatched.subtract(matches)
                        isSelected = !matches.isEmpty
                    }
                    if skip.contains(where: { pattern in names.contains { Self.matches(pattern, $0) } }) {
                        isSelected = false
                    }
                }
                let caseItems = Self.items(of: spec, in: shared)
                if !hasChains {
                    hasChains = spec.exampleSteps.contains { if case .chained = $0.kind { true } else { false } }
                }
                all += caseItems
                selected.append(contentsOf: repeatElement(isSelected, count: caseItems.count))
            }
        }
        if let pattern = only.first(where: unmatched.contains) {
            let cases = apis.flatMap { api in api.cases.map { api.name + "." + $0.name } }
            throw .onlyMatchesNothing(pattern: pattern, cases: cases)
        }
        // Reading every item's chain costs a large plan a tenth of its making: only when there are chains.
        if hasChains { Self.linkChains(&all) }
        // The steps a selected chained example runs after are needed too.
        for index in all.indices.reversed() where selected[index] {
            var step = all[index].afterIndex
            while let before = step, !selected[before] {
                selected[before] = true
                step = all[before].afterIndex
            }
        }
        var kept = all.indices.filter { selected[$0] }
        if let shard {
            // A chain goes where its first step goes.
            let rootIDs = kept.map { index in
                var root = index
                while let before = all[root].afterIndex { root = before }
                return all[root].id
            }
            let shards = Self.shardIndices(of: rootIDs, count: shard.count)
            kept = zip(kept, shards).filter { $0.1 == shard.index - 1 }.map(\.0)
        }
        // Every item kept (no `only`, `skip` or shard left any out): each keeps its index, and the
        // plan is `all` as it is, not a copy renumbered through a table.
        guard kept.count < all.count else {
            items = all
            return
        }
        var position: [Int: Int] = [:]
        for (newIndex, oldIndex) in kept.enumerated() { position[oldIndex] = newIndex }
        items = kept.map { index in
            var item = all[index]
            item.afterIndex = item.afterIndex.flatMap { position[$0] }
            return item
        }
    }

    /// Sets each chained item's `afterIndex`: the item of the example its `after:` names (the
    /// loader made sure it exists and that no chain loops).
    static func linkChains(_ items: inout [CheckItem]) {
        for index in items.indices {
            guard let after = items[index].chain?.after else { continue }
            let apiName = items[index].api.name
            items[index].afterIndex = items.firstIndex { candidate in
                candidate.api.name == apiName && candidate.spec.name == after.caseName
                    && (after.number == nil || candidate.exampleNumber == after.number)
            }
        }
    }

    /// The items of one case: one per example; one with the defaults when every value has one;
    /// a not-covered item when values without defaults have no example.
    static func items(of spec: CaseSpec, in api: SharedAPI) -> [CheckItem] {
        if !spec.exampleSteps.isEmpty {
            return spec.exampleSteps.map { step in
                switch step.kind {
                case .arguments(let arguments):
                    CheckItem(api: api, spec: spec, exampleNumber: step.number, arguments: arguments)
                case .chained(let chained):
                    CheckItem(api: api, spec: spec, exampleNumber: step.number, arguments: [:], chain: chained)
                }
            }
        }
        let required = spec.values.filter(\.isRequired).map(\.name)
        if required.isEmpty, let defaults = try? spec.argumentBinder().bind() {
            return [CheckItem(api: api, spec: spec, exampleNumber: nil, arguments: defaults)]
        }
        let reason =
            "no examples for value\(required.count == 1 ? "" : "s") "
            + required.map { "'\($0)'" }.joined(separator: ", ")
            + "; add 'examples:' to the case"
        return [CheckItem(api: api, spec: spec, exampleNumber: nil, arguments: [:], notCoveredReason: reason)]
    }

    /// The shard (0-based, of `count`) of each id: the ids are ordered by FNV-1a 64 of their UTF-8
    /// (the same on every machine and run; Swift's `Hasher` is seeded per process), then dealt
    /// round-robin, so the shards' sizes differ by at most one and an unchanged plan is split the
    /// same way every time.
    static func shardIndices(of ids: [String], count: Int) -> [Int] {
        let ranked = ids.indices.sorted { (fnv1a(ids[$0]), ids[$0]) < (fnv1a(ids[$1]), ids[$1]) }
        var shards = Array(repeating: 0, count: ids.count)
        for (rank, index) in ranked.enumerated() { shards[index] = rank % count }
        return shards
    }

    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// Whether `name` matches the shell-style `pattern` (`*`, `?`, `[...]`).
    static func matches(_ pattern: String, _ name: String) -> Bool {
        fnmatch(pattern, name, 0) == 0
    }
}

/// One of `count` stable parts of a plan (`--shard I/N`), so CI can spread a run over machines.
package struct CheckShard: Sendable, Hashable {
    /// Which part, from 1.
    package var index: Int
    /// How many parts.
    package var count: Int

    /// The `index`-th (1-based) of `count` parts, or `nil` when `index` is not in `1...count`.
    package init?(index: Int, count: Int) {
        guard count >= 1, (1...count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }
}
