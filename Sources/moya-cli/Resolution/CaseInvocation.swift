/// `API CASE [VALUES...] [--name value]...` as typed after `call` or `curl`.
struct CaseInvocation: Equatable {
    var api: String?
    var caseName: String?
    var positional: [String] = []
    /// Named values, every word given for each (a list value may be repeated; the binder
    /// refuses a repeated value of another type).
    var named: [String: [String]] = [:]

    /// Splits the words ArgumentParser left over: the first two plain words are the API and the
    /// case; `--name value` and `--name=value` are named values; other words are positional values.
    /// After `--`, every word is positional (a value that starts with `-`).
    ///
    /// `values` are `--value NAME=VALUE` options: named values whatever their name, even one that
    /// is also an option of the command.
    init(words: [String], values: [String] = []) throws {
        var index = 0
        var onlyPositional = false
        func take(_ word: String) {
            if api == nil { api = word } else if caseName == nil { caseName = word } else { positional.append(word) }
        }
        while index < words.count {
            let word = words[index]
            index += 1
            if onlyPositional || !word.hasPrefix("--") || word == "-" {
                if word == "--" && !onlyPositional {
                    onlyPositional = true
                    continue
                }
                if !onlyPositional, let refusal = CurlWordLetters.refusals.first(where: { $0.word == word }) {
                    throw CommandFailure(.usage, refusal.message)
                }
                take(word)
                continue
            }
            if word == "--" {
                onlyPositional = true
                continue
            }
            var name = String(word.dropFirst(2))
            var value: String
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            } else {
                guard index < words.count else {
                    throw CommandFailure(
                        .usage,
                        "--\(name) is not an option of this command, nor a value followed by its argument; see --help")
                }
                value = words[index]
                index += 1
            }
            named[name, default: []].append(value)
        }
        for value in values {
            guard let equals = value.firstIndex(of: "="), equals != value.startIndex else {
                throw CommandFailure(.usage, "--value '\(value)' is not NAME=VALUE")
            }
            let name = String(value[..<equals])
            named[name, default: []].append(String(value[value.index(after: equals)...]))
        }
    }
}
