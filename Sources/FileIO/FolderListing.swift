#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The names in a folder, read with readdir(3).
///
/// Foundation's `FileManager.contentsOfDirectory(atPath:)` gives the same names, but joins paths
/// through a generic `joined(separator:)` whose first use looks up a protocol conformance by
/// scanning every conformance record of the static binary: some 290,000 instructions of every
/// call, which lists the target folders first (budget "call --stub (github zen)").
package enum FolderListing {
    /// The names in `path` but `.` and `..`, in the order the system gives them; `nil` when it
    /// cannot be opened as a folder.
    package static func names(in path: String) -> [String]? {
        guard let folder = opendir(path) else { return nil }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: &entry.pointee.d_name) { raw in
                String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
