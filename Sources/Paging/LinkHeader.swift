/// RFC 8288 `Link` header fields: `<https://api.github.com/user/repos?page=2>; rel="next", <...>; rel="last"`.
///
/// Commas separate links, but may also appear inside `<...>` and in quoted parameter values, so
/// the fields are read character by character rather than split.
package enum LinkHeader {
    /// One link: its target as written (maybe relative) and its parameters.
    package struct Link: Sendable, Hashable {
        /// The URI reference between `<` and `>`.
        package var target: String
        /// The parameters, names lowercased, in order.
        package var parameters: [Parameter]

        /// The relation types of `rel`, lowercased (`rel="next last"` has two).
        package var relations: [String] {
            guard let rel = parameters.first(where: { $0.name == "rel" })?.value else { return [] }
            return rel.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        }
    }

    /// A link parameter.
    package struct Parameter: Sendable, Hashable {
        /// The name, lowercased.
        package var name: String
        /// The value, unquoted; empty for a parameter without one.
        package var value: String
    }

    /// The links of every field in `values` (a response may send `Link` more than once), in order;
    /// a malformed link is skipped up to the next comma outside quotes and brackets.
    package static func links(in values: [String]) -> [Link] {
        values.flatMap { parse(Array($0.unicodeScalars)) }
    }

    /// The target of the first link whose relations include `relation` (case-insensitively).
    package static func target(relation: String, in values: [String]) -> String? {
        let wanted = relation.lowercased()
        return links(in: values).first { $0.relations.contains(wanted) }?.target
    }

    private static func parse(_ scalars: [Unicode.Scalar]) -> [Link] {
        var links: [Link] = []
        var index = 0
        func skipSpace() {
            while index < scalars.count, scalars[index] == " " || scalars[index] == "\t" { index += 1 }
        }
        /// Skips to just after the next comma outside quotes and brackets.
        func skipToNextLink() {
            var inQuotes = false
            var inBrackets = false
            while index < scalars.count {
                let scalar = scalars[index]
                index += 1
                if inQuotes {
                    if scalar == "\\" { index += 1 } else if scalar == "\"" { inQuotes = false }
                } else if inBrackets {
                    if scalar == ">" { inBrackets = false }
                } else if scalar == "\"" {
                    inQuotes = true
                } else if scalar == "<" {
                    inBrackets = true
                } else if scalar == "," {
                    return
                }
            }
        }
        while index < scalars.count {
            skipSpace()
            guard index < scalars.count else { break }
            if scalars[index] == "," {
                index += 1
                continue
            }
            guard scalars[index] == "<", let close = scalars[(index + 1)...].firstIndex(of: ">") else {
                skipToNextLink()
                continue
            }
            let target = String(String.UnicodeScalarView(scalars[(index + 1)..<close]))
            index = close + 1
            var parameters: [Parameter] = []
            var isValid = true
            while true {
                skipSpace()
                guard index < scalars.count, scalars[index] != "," else { break }
                guard scalars[index] == ";" else {
                    isValid = false
                    break
                }
                index += 1
                skipSpace()
                let nameStart = index
                while index < scalars.count, isTokenScalar(scalars[index]) { index += 1 }
                guard index > nameStart else {
                    isValid = false
                    break
                }
                let name = String(String.UnicodeScalarView(scalars[nameStart..<index])).lowercased()
                skipSpace()
                var value = ""
                if index < scalars.count, scalars[index] == "=" {
                    index += 1
                    skipSpace()
                    if index < scalars.count, scalars[index] == "\"" {
                        index += 1
                        var text = String.UnicodeScalarView()
                        var closed = false
                        while index < scalars.count {
                            let scalar = scalars[index]
                            index += 1
                            if scalar == "\\", index < scalars.count {
                                text.append(scalars[index])
                                index += 1
                            } else if scalar == "\"" {
                                closed = true
                                break
                            } else {
                                text.append(scalar)
                            }
                        }
                        guard closed else {
                            isValid = false
                            break
                        }
                        value = String(text)
                    } else {
                        let valueStart = index
                        while index < scalars.count, isTokenScalar(scalars[index]) { index += 1 }
                        value = String(String.UnicodeScalarView(scalars[valueStart..<index]))
                    }
                }
                // RFC 8288 3.3: only the first occurrence of rel counts.
                if name != "rel" || !parameters.contains(where: { $0.name == "rel" }) {
                    parameters.append(Parameter(name: name, value: value))
                }
            }
            if isValid {
                links.append(Link(target: target, parameters: parameters))
            } else {
                skipToNextLink()
            }
        }
        return links
    }

    /// RFC 9110 token characters.
    private static func isTokenScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "A"..."Z", "a"..."z", "0"..."9", "!", "#", "$", "%", "&", "'", "*", "+", "-", ".", "^", "_", "`", "|", "~":
            true
        default: false
        }
    }
}
