/// One curl command line as its options gave it, before curl's rules make a request of it
/// (``CurlRequestBuilder``): what each option said, in order, with where it was.
package struct CurlCommand: Sendable {
    /// One option with its argument (`nil` for a flag) and where the option was.
    package struct Given: Sendable {
        package var option: CurlOption
        package var spelling: String
        package var argument: ShellWord?
        package var place: TextPlace
    }

    /// Where the command starts.
    package var place: TextPlace
    /// The options, in order.
    package var options: [Given] = []
    /// The URLs (words that are not options, and `--url`).
    package var urls: [ShellWord] = []

    /// Reads the words of one command: `curl` (or a path ending in `/curl`), then options and URLs.
    package init(_ line: ShellCommandLine) throws(RequestImportError) {
        place = line.place
        guard let first = line.words.first, first.text == "curl" || first.text.hasSuffix("/curl") else {
            throw RequestImportError(
                "not a curl command: it starts with '\(line.words.first?.text.prefix(40) ?? "")'", at: line.place)
        }
        var index = 1
        let words = line.words
        func argument(for spelling: String, at place: TextPlace) throws(RequestImportError) -> ShellWord {
            index += 1
            guard index < words.count else {
                throw RequestImportError("\(spelling) needs an argument", at: place)
            }
            return words[index]
        }
        while index < words.count {
            let word = words[index]
            let text = word.text
            if text.hasPrefix("--"), text.count > 2 {
                let name = String(text.dropFirst(2))
                guard let entry = CurlOption.long(name) else {
                    throw RequestImportError(
                        "unknown curl option '\(text.prefix(60))': remove it or import the command without it",
                        at: word.place)
                }
                let value = entry.takesArgument ? try argument(for: text, at: word.place) : nil
                add(entry.option, spelling: text, argument: value, at: word.place)
            } else if text.hasPrefix("-"), text.count > 1 {
                var letters = Substring(text.dropFirst())
                while let letter = letters.first {
                    letters = letters.dropFirst()
                    guard let entry = CurlOption.short(letter) else {
                        throw RequestImportError(
                            "unknown curl option '-\(letter)': remove it or import the command without it",
                            at: word.place)
                    }
                    guard entry.takesArgument else {
                        add(entry.option, spelling: "-\(letter)", argument: nil, at: word.place)
                        continue
                    }
                    if letters.isEmpty {
                        add(
                            entry.option, spelling: "-\(letter)",
                            argument: try argument(for: "-\(letter)", at: word.place),
                            at: word.place)
                    } else {
                        // `-XPOST`: the rest of the word is the argument.
                        let skipped = text.utf8.count - letters.utf8.count
                        let attached = ShellWord(
                            bytes: Array(word.bytes.dropFirst(skipped)), place: word.place,
                            hasExpansion: word.hasExpansion)
                        add(entry.option, spelling: "-\(letter)", argument: attached, at: word.place)
                    }
                    break
                }
            } else {
                urls.append(word)
            }
            index += 1
        }
    }

    private mutating func add(_ option: CurlOption, spelling: String, argument: ShellWord?, at place: TextPlace) {
        if option == .url, let argument {
            urls.append(argument)
            return
        }
        options.append(Given(option: option, spelling: spelling, argument: argument, place: place))
    }
}
