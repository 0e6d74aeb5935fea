import TargetModel

/// Which sample answers page N of a stubbed `--all` (`call --stub --all`, offline `check --all`):
/// the sample named `pageN`. One rule, so both roads agree on it and on the error.
package enum PageSample {
    /// The name of the sample that answers page `number`.
    package static func name(forPage number: Int) -> String {
        "page\(number)"
    }

    /// The name of page `number`'s sample in `spec`, or `MissingPageSample` when it has none.
    package static func name(forPage number: Int, in spec: CaseSpec) throws(MissingPageSample) -> String {
        let name = name(forPage: number)
        guard spec.samples.contains(where: { $0.name == name }) else { throw MissingPageSample(page: number) }
        return name
    }
}

/// A stubbed page has a next page, and the case has no sample to answer it.
package struct MissingPageSample: Error, Sendable, Hashable {
    /// The page that has no sample (the one after the page that said there is more).
    package var page: Int

    /// The sentence, saying that the page before was a sample when `marksSample`.
    package func message(marksSample: Bool) -> String {
        "page \(page - 1)\(marksSample ? " (a sample)" : "") has a next page, but the case has no sample "
            + "'\(PageSample.name(forPage: page))'"
    }
}
