import HTTPTypes

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
extension HTTPFields {
    /// One `(name, value)` per field name, in order of first appearance: fields sharing a name
    /// are joined as HTTP says (`"; "` for `Cookie`, which `HTTPFields` splits, `", "` otherwise).
    var combinedByName: [(String, String)] {
        var seen = Set<String>()
        var combined: [(String, String)] = []
        for field in self where seen.insert(field.name.canonicalName).inserted {
            combined.append((field.name.rawName, self[field.name] ?? field.value))
        }
        return combined
    }
}
