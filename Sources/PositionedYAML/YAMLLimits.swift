/// Bounds that keep a hostile or broken target file from costing more than a bounded amount of
/// time and memory. Every limit is checked as the file is read, so a file over a limit is refused
/// as soon as the limit is crossed, never after the damage is done.
public struct YAMLLimits: Sendable, Hashable {
    /// The largest file accepted, in bytes. Default: 16 MiB — a 10,000-case API is about 2 MiB.
    public var maximumFileSize: Int
    /// The deepest nesting of sequences and mappings, counting the root collection as 1 and
    /// counting what aliases bring in. Default: 64 — a target file needs about 10.
    public var maximumDepth: Int
    /// The longest scalar accepted, in UTF-8 bytes after escapes are resolved. Default: 1 MiB.
    public var maximumScalarLength: Int
    /// The most nodes that aliases may add to the tree, counting each alias as the full size of
    /// the node it names. Nodes written out in the file do not count. Default: 100,000 — enough
    /// for any honest use of anchors, and it stops a "billion laughs" file at its first few aliases.
    public var maximumAliasExpansion: Int
    /// The most scalar text, in UTF-8 bytes, that aliases may add to the tree, counting each alias
    /// as all the text (keys included) of the node it names, its own aliases expanded. Text written
    /// out in the file does not count. Default: 16 MiB, the largest file's worth — without it, one
    /// 1 MiB scalar aliased a few thousand times stays within the node budget, yet validating or
    /// stubbing the file walks or copies gigabytes.
    public var maximumAliasExpansionBytes: Int
    /// The most nodes (scalars, keys included, sequences, mappings and aliases) the loader may
    /// hold at once, as written. The cases of a target file's `cases` map are validated and
    /// dropped one by one as they are read, so each case's nodes count only while it is read
    /// (unless it defines an anchor, which keeps them); everything else counts for the whole file.
    /// Default: 1,000,000 — the largest case or the rest of a file needs a few thousand; without
    /// it, a 16 MiB flat list of millions of tiny items would be built in full before anything
    /// refused it.
    public var maximumNodes: Int
    /// The most cases a target file's `cases` map may hold when its cases are read one by one
    /// (always, unless the map is anchored: then all its nodes count, as above). Default: 100,000
    /// — a 50,000-case API is a 10 MB file; without it, 16 MiB of one-line cases would be a
    /// million of them, each validated into a model far larger than its line.
    public var maximumCases: Int

    /// Creates limits; every argument defaults to the value in ``default``.
    public init(
        maximumFileSize: Int = 16 << 20,
        maximumDepth: Int = 64,
        maximumScalarLength: Int = 1 << 20,
        maximumAliasExpansion: Int = 100_000,
        maximumAliasExpansionBytes: Int = 16 << 20,
        maximumNodes: Int = 1_000_000,
        maximumCases: Int = 100_000
    ) {
        self.maximumFileSize = maximumFileSize
        self.maximumDepth = maximumDepth
        self.maximumScalarLength = maximumScalarLength
        self.maximumAliasExpansion = maximumAliasExpansion
        self.maximumAliasExpansionBytes = maximumAliasExpansionBytes
        self.maximumNodes = maximumNodes
        self.maximumCases = maximumCases
    }

    /// 16 MiB files, depth 64, 1 MiB scalars, 100,000 nodes and 16 MiB of text added by aliases,
    /// 1,000,000 nodes held at once, 100,000 cases.
    public static let `default` = YAMLLimits()
}
