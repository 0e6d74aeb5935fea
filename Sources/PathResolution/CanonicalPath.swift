#if canImport(Glibc)
import Glibc
#endif

/// A path as the system will open it, for comparing places: made absolute, each existing
/// component's symbolic links followed before a later `..` applies (so `link/..` is the link
/// target's parent), and components that do not exist yet taken as written.
package enum CanonicalPath {
    /// `path` resolved; relative paths are taken from the current folder.
    package static func of(_ path: String) -> String {
        // A path that exists resolves whole: realpath(3) follows each component's links before a
        // later `..` applies, as the walk below does one component at a time, with a realpath
        // each (the files a stubbed call checks: 17.16 M to 16.45 M instructions, issue 42).
        if let whole = resolved(path) { return whole }
        var current = path.hasPrefix("/") ? "/" : resolved(".") ?? "."
        for component in path.split(separator: "/") {
            switch component {
            case ".":
                continue
            case "..":
                current = parent(of: current)
            default:
                // String + String: `+ component` (a Substring) goes through the generic
                // `append(contentsOf:)`, whose associated-type lookup scans the binary's
                // conformance records at its first use (~240,000 instructions).
                let candidate = (current == "/" ? "/" : current + "/") + String(component)
                current = resolved(candidate) ?? candidate
            }
        }
        return current
    }

    /// Whether `path` is `folder` or inside it, both resolved; a whole-component prefix, so
    /// `/a/targets2` is not inside `/a/targets`.
    package static func isInside(_ path: String, _ folder: String) -> Bool {
        isResolved(of(path), inside: of(folder))
    }

    /// Whether the resolved `path` is the resolved `folder` or inside it, by whole components.
    package static func isResolved(_ path: String, inside folder: String) -> Bool {
        path == folder || path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }

    private static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    /// `realpath(3)` of `path`, or `nil` when it does not resolve.
    package static func resolved(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }
}
