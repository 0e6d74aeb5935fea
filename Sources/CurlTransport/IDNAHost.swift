/// An internationalised host name as libcurl is given it: each label that is not ASCII in
/// punycode (RFC 3492) with the `xn--` prefix, after UTS 46's lower-case mapping, as curl (with
/// libidn2) and URLSession send it. Messages keep the URL as written; only the text handed to
/// libcurl changes.
///
/// The host may reach here as written (`bücher.example`) or percent-encoded
/// (`b%C3%BCcher.example`, as Foundation's URL parser writes a host it does not convert); both
/// become `xn--bcher-kva.example`. The mapping is Unicode's lower case and the ideographic full
/// stops (U+3002, U+FF0E, U+FF61) as dots; Unicode normalisation is not applied (a host is taken
/// to be written in NFC, as nearly all are), and a host that does not decode as UTF-8 is left
/// as it is, for libcurl to refuse.
package enum IDNAHost {
    /// `url` with its host in ASCII; `url` itself when its host already is (the common case, no
    /// copy made).
    package static func asciiURL(_ url: String) -> String {
        guard let (range, _, ascii) = internationalHost(in: url) else { return url }
        return String(url[..<range.lowerBound]) + ascii + String(url[range.upperBound...])
    }

    /// `url` with an internationalised host as written (percent-decoded), for what is shown.
    package static func urlAsWritten(_ url: String) -> String {
        guard let (range, written, _) = internationalHost(in: url) else { return url }
        return String(url[..<range.lowerBound]) + written + String(url[range.upperBound...])
    }

    /// `message` (libcurl's, which names the host it was given) with `url`'s internationalised
    /// host as written rather than in punycode.
    package static func hostAsWritten(in message: String, url: String) -> String {
        guard let (_, written, ascii) = internationalHost(in: url) else { return message }
        return message.replacing(ascii, with: written)
    }

    /// Where `url`'s host is, as written (percent-decoded) and in ASCII, when it is not ASCII.
    private static func internationalHost(in url: String) -> (Range<String.Index>, String, String)? {
        // No byte of the whole URL is non-ASCII or `%`, so neither is its host's: the common case,
        // answered without the string searches below (some 60,000 instructions a request of a
        // live sweep, issue 42).
        guard url.utf8.contains(where: { $0 >= 0x80 || $0 == UInt8(ascii: "%") }) else { return nil }
        guard let schemeEnd = url.firstRange(of: "://") else { return nil }
        let authorityStart = schemeEnd.upperBound
        let authorityEnd = url[authorityStart...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? url.endIndex
        let hostStart =
            url[authorityStart..<authorityEnd].lastIndex(of: "@").map { url.index(after: $0) } ?? authorityStart
        guard hostStart < authorityEnd, url[hostStart] != "[" else { return nil }
        let hostEnd = url[hostStart..<authorityEnd].firstIndex(of: ":") ?? authorityEnd
        let host = url[hostStart..<hostEnd]
        guard host.utf8.contains(where: { $0 >= 0x80 || $0 == UInt8(ascii: "%") }),
            let decoded = percentDecoded(host),
            // A decoded `/`, `@`, `:` or the like would move the host's end: such a host is left to
            // libcurl, which refuses it.
            decoded.unicodeScalars.allSatisfy({ !$0.isASCII || isHostCharacter($0) }),
            let ascii = asciiHost(decoded)
        else { return nil }
        return (hostStart..<hostEnd, decoded, ascii)
    }

    /// `host` (Unicode) in ASCII, each label that is not in punycode; nil when a label cannot be.
    package static func asciiHost(_ host: String) -> String? {
        let mapped = String(
            String.UnicodeScalarView(
                host.lowercased().unicodeScalars.map { ["\u{3002}", "\u{FF0E}", "\u{FF61}"].contains($0) ? "." : $0 }))
        var labels: [String] = []
        for label in mapped.split(separator: ".", omittingEmptySubsequences: false) {
            if label.utf8.allSatisfy({ $0 < 0x80 }) {
                labels.append(String(label))
            } else {
                guard let encoded = punycode(label.unicodeScalars.map(\.value)) else { return nil }
                labels.append("xn--" + encoded)
            }
        }
        return labels.joined(separator: ".")
    }

    /// RFC 3492's encoding of `input` (code points), or nil for a label too long to be a host's.
    package static func punycode(_ input: [UInt32]) -> String? {
        let base = 36
        let tMin = 1
        let tMax = 26
        guard input.count <= 63 else { return nil }
        var output = input.filter { $0 < 0x80 }.map { UInt8($0) }
        let basicCount = output.count
        var handled = basicCount
        if basicCount > 0 { output.append(UInt8(ascii: "-")) }
        var next = 0x80
        var delta = 0
        var bias = 72
        while handled < input.count {
            guard let smallest = input.lazy.map({ Int($0) }).filter({ $0 >= next }).min() else { return nil }
            delta += (smallest - next) * (handled + 1)
            next = smallest
            for scalar in input.lazy.map({ Int($0) }) {
                if scalar < next { delta += 1 }
                guard scalar == next else { continue }
                var remainder = delta
                var position = base
                while true {
                    let threshold = position <= bias ? tMin : (position >= bias + tMax ? tMax : position - bias)
                    if remainder < threshold { break }
                    output.append(digit(threshold + (remainder - threshold) % (base - threshold)))
                    remainder = (remainder - threshold) / (base - threshold)
                    position += base
                }
                output.append(digit(remainder))
                bias = adapt(delta, count: handled + 1, first: handled == basicCount)
                delta = 0
                handled += 1
            }
            delta += 1
            next += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func isHostCharacter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
            || scalar == "-" || scalar == "." || scalar == "_"
    }

    /// RFC 3492's bias adaptation.
    private static func adapt(_ delta: Int, count: Int, first: Bool) -> Int {
        var delta = first ? delta / 700 : delta / 2
        delta += delta / count
        var position = 0
        while delta > ((36 - 1) * 26) / 2 {
            delta /= 36 - 1
            position += 36
        }
        return position + (36 - 1 + 1) * delta / (delta + 38)
    }

    private static func digit(_ value: Int) -> UInt8 {
        value < 26 ? UInt8(ascii: "a") + UInt8(value) : UInt8(ascii: "0") + UInt8(value - 26)
    }

    /// `text` with `%XX` escapes decoded, as UTF-8; nil when the result is not UTF-8.
    private static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var index = text.utf8.startIndex
        let utf8 = text.utf8
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%"), let first = utf8.index(index, offsetBy: 1, limitedBy: utf8.endIndex),
                let last = utf8.index(index, offsetBy: 3, limitedBy: utf8.endIndex),
                let value = UInt8(String(decoding: utf8[first..<last], as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                index = last
            } else {
                bytes.append(byte)
                index = utf8.index(after: index)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
