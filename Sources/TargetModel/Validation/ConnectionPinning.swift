/// The rules for curl's `--resolve HOST:PORT:ADDRESS[,ADDRESS...]` and `--connect-to
/// HOST1:PORT1:HOST2:PORT2`, for the command line and an environment's `resolve:` alike.
public enum ConnectionPinning {
    /// A `--resolve` entry read: the host (lowercased, IPv6 without brackets), the port, the
    /// addresses.
    public struct ResolveEntry: Sendable, Hashable {
        public var host: String
        public var port: Int
        public var addresses: [String]
    }

    /// Reads `HOST:PORT:ADDRESS[,ADDRESS...]`, each address an IPv4 or IPv6 literal (IPv6 may be
    /// bracketed); the problem, to be said with where the entry came from, when it is not one.
    public static func resolveEntry(_ text: String) -> Result<ResolveEntry, ProblemText> {
        guard !text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) else {
            return .failure(ProblemText("holds a space or a control character"))
        }
        let parts = splitOutsideBrackets(text, limit: 3)
        guard parts.count == 3 else {
            return .failure(ProblemText("is not HOST:PORT:ADDRESS[,ADDRESS...]"))
        }
        let host = unbracketed(parts[0]).lowercased()
        guard !host.isEmpty, host.allSatisfy({ $0.isLetter || $0.isNumber || "-._:".contains($0) }) else {
            return .failure(ProblemText("has no host name before the first ':'"))
        }
        guard let port = Int(parts[1]), (1...65535).contains(port) else {
            return .failure(ProblemText("has no port from 1 to 65535 after the host"))
        }
        let addresses = parts[2].split(separator: ",", omittingEmptySubsequences: false).map {
            unbracketed(String($0))
        }
        guard !addresses.isEmpty, addresses.allSatisfy(isIPAddress) else {
            return .failure(ProblemText("has an address that is not an IPv4 or IPv6 address ([::1] or 127.0.0.1)"))
        }
        return .success(ResolveEntry(host: host, port: port, addresses: addresses))
    }

    /// Checks `HOST1:PORT1:HOST2:PORT2` (each may be empty, as curl allows: any host or port).
    public static func connectToProblem(_ text: String) -> ProblemText? {
        guard !text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) else {
            return ProblemText("holds a space or a control character")
        }
        let parts = splitOutsideBrackets(text, limit: 4)
        guard parts.count == 4 else { return ProblemText("is not HOST1:PORT1:HOST2:PORT2") }
        for port in [parts[1], parts[3]] where !port.isEmpty {
            guard let number = Int(port), (1...65535).contains(number) else {
                return ProblemText("has a port that is not a number from 1 to 65535")
            }
        }
        return nil
    }

    /// The host of an absolute `http(s)://` URL, lowercased, IPv6 without brackets.
    public static func host(ofURL text: String) -> String? {
        guard let separator = text.firstRange(of: "://") else { return nil }
        var authority = text[separator.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            return String(authority[authority.index(after: authority.startIndex)..<close]).lowercased()
        }
        let host = authority.prefix { $0 != ":" }
        return host.isEmpty ? nil : host.lowercased()
    }

    /// The entry as libcurl takes it (IPv6 addresses bracketed).
    public static func curlForm(_ entry: ResolveEntry) -> String {
        let host = entry.host.contains(":") ? "[" + entry.host + "]" : entry.host
        let addresses = entry.addresses.map { $0.contains(":") ? "[" + $0 + "]" : $0 }
        return host + ":\(entry.port):" + addresses.joined(separator: ",")
    }

    /// What is wrong, worded to follow the entry it is about.
    public struct ProblemText: Error, Sendable, Hashable {
        public var text: String
        init(_ text: String) { self.text = text }
    }

    /// Whether `text` is an IPv4 dotted quad or an IPv6 address (no zone).
    static func isIPAddress(_ text: String) -> Bool {
        let octets = text.split(separator: ".", omittingEmptySubsequences: false)
        if octets.count == 4 {
            return octets.allSatisfy { octet in
                !octet.isEmpty && octet.count <= 3 && octet.allSatisfy(\.isASCIIDigit) && Int(octet)! <= 255
            }
        }
        guard text.contains(":"), text.count <= 45 else { return false }
        let groups = text.components(separatedByString: "::")
        guard groups.count <= 2 else { return false }
        var count = 0
        for (index, half) in groups.enumerated() where !half.isEmpty {
            let pieces = half.split(separator: ":", omittingEmptySubsequences: false)
            for (offset, piece) in pieces.enumerated() {
                let isLast = index == groups.count - 1 && offset == pieces.count - 1
                if isLast, piece.contains("."), isIPAddress(String(piece)) {
                    count += 2
                    continue
                }
                guard (1...4).contains(piece.count), piece.allSatisfy(\.isHexDigit) else { return false }
                count += 1
            }
        }
        return groups.count == 2 ? count < 8 : count == 8
    }

    private static func unbracketed(_ text: String) -> String {
        text.hasPrefix("[") && text.hasSuffix("]") ? String(text.dropFirst().dropLast()) : text
    }

    /// `text` split at its first `limit - 1` colons outside `[...]`.
    private static func splitOutsideBrackets(_ text: String, limit: Int) -> [String] {
        var parts: [String] = []
        var current = ""
        var depth = 0
        for character in text {
            if character == "[" { depth += 1 }
            if character == "]" { depth = max(0, depth - 1) }
            if character == ":", depth == 0, parts.count < limit - 1 {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current)
        return parts
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

extension String {
    /// The pieces between occurrences of `separator` (which must not be empty).
    fileprivate func components(separatedByString separator: String) -> [String] {
        var pieces: [String] = []
        var rest = Substring(self)
        while let range = rest.firstRange(of: separator) {
            pieces.append(String(rest[..<range.lowerBound]))
            rest = rest[range.upperBound...]
        }
        pieces.append(String(rest))
        return pieces
    }
}
