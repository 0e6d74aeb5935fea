import HTTPTypes
import MoyaKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Sends `Accept-Language` from the user's locale, as URLSession sends the preferred languages,
/// unless the target file sets one; `-H 'Accept-Language: …'` (applied after) replaces it and
/// `-H 'Accept-Language:'` removes it.
///
/// The locale is POSIX's for messages: the first of `LC_ALL`, `LC_MESSAGES` and `LANG` that is
/// set and not empty. `de_DE.UTF-8` (codeset and `@modifier` dropped) sends
/// `de-DE,de;q=0.9` — the language tag, then the bare language, in URLSession's form; a bare
/// `de` sends `de`. `C`, `POSIX`, an unset or empty locale, and anything that is not
/// `language[_TERRITORY]` (2–3 letters, then 2 letters or 3 digits) send none, as
/// swift-corelibs-foundation's URLSession sends none: no language was chosen.
struct AcceptLanguagePlugin: PluginType {
    /// The header's value for this process's environment, read once (three getenv(3) calls).
    static let value: String? = {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            guard let pointer = getenv(name) else { continue }
            let locale = String(cString: pointer)
            if !locale.isEmpty { return header(forLocale: locale) }
        }
        return nil
    }()

    /// `Accept-Language` for a POSIX locale name, or nil when it names no language.
    static func header(forLocale locale: String) -> String? {
        let name = locale.prefix { $0 != "." && $0 != "@" }
        let parts = name.split(separator: "_", maxSplits: 1, omittingEmptySubsequences: false)
        let language = parts[0]
        guard (2...3).contains(language.utf8.count), language.utf8.allSatisfy({ isLetter($0) }) else { return nil }
        let lower = language.lowercased()
        guard lower != "c" else { return nil }
        guard parts.count == 2 else { return lower }
        let territory = parts[1]
        let letters = territory.utf8.count == 2 && territory.utf8.allSatisfy { isLetter($0) }
        let digits = territory.utf8.count == 3 && territory.utf8.allSatisfy { (0x30...0x39).contains($0) }
        guard letters || digits else { return nil }
        return "\(lower)-\(territory.uppercased()),\(lower);q=0.9"
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    func prepare(_ request: URLRequest, target: any TargetType) -> URLRequest {
        guard let value = Self.value,
            !request.headers.contains(where: { $0.name == .acceptLanguage })
        else { return request }
        var request = request
        request.headers.append(HTTPField(name: .acceptLanguage, value: value))
        return request
    }
}
