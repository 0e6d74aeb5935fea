#if canImport(Glibc)
import Glibc
#endif

/// `request` reads standard input only when told to (`--data -`, `--json -`, `--bearer -`, an
/// item's `@-`): xh and HTTPie send piped data as the body by themselves, so data waiting there
/// gets a one-line note instead of being dropped silently.
enum IgnoredInput {
    /// Whether any word or option of the request reads standard input.
    static func isRead(words: [String], json: String?, data: String?, bearer: String?) -> Bool {
        json == "-" || data == "-" || bearer == "-" || words.contains { $0.hasSuffix("@-") }
    }

    /// The note, when standard input is not a terminal and holds bytes right now (a pipe or file
    /// with data; `/dev/null`, an empty pipe and a terminal say nothing). Never reads them.
    static func note() -> String? {
        guard isatty(0) == 0 else { return nil }
        var waiting: Int32 = 0
        guard ioctl(0, UInt(FIONREAD), &waiting) == 0, waiting > 0 else { return nil }
        return
            "moya-cli: note: standard input holds data, which request does not send; give --data - (or --json -) to send it as the body\n"
    }
}
