import MoyaKit
import TargetSpec

/// The APIs `check` runs over: the ones named, or every one found; invalid files end the run (65).
enum CheckTargets {
    static func apis(named names: [String], loader: CatalogLoader, environmentName: String?) throws -> [APISpec] {
        let catalog = try loader.load()
        var apis: [APISpec] = []
        if names.isEmpty {
            loader.printDiagnostics(of: catalog)
            if catalog.hasErrors {
                let errors = catalog.diagnostics.count { $0.severity == .error }
                throw CommandFailure(.invalidTargetFile, "\(errors) error\(errors == 1 ? "" : "s") in target files; nothing was checked")
            }
            apis = catalog.entries.compactMap(\.api)
            guard !apis.isEmpty else {
                throw CommandFailure(.usage, "no target files found; name a file or folder with --targets, or put files in ./targets")
            }
        } else {
            var invalidFiles: [String] = []
            var seen = Set<String>()
            for name in names where seen.insert(name).inserted {
                do {
                    apis.append(try catalog.api(named: name))
                } catch {
                    guard case .invalidAPI(_, let file) = error else { throw CommandFailure(.usage, error.description) }
                    invalidFiles.append(file)
                }
            }
            let files = Set(apis.map(\.file) + invalidFiles)
            StandardStream.error.write(DiagnosticRenderer.render(
                catalog.diagnostics.filter { files.contains($0.file) }, source: { catalog.sources[$0] }, colored: loader.colorsDiagnostics))
            if !invalidFiles.isEmpty {
                throw CommandFailure(.invalidTargetFile, "invalid target file\(invalidFiles.count == 1 ? "" : "s") "
                    + invalidFiles.map { "'\($0)'" }.joined(separator: ", ") + "; nothing was checked")
            }
        }
        if let environmentName {
            for api in apis {
                do {
                    _ = try api.environment(named: environmentName)
                } catch {
                    throw CommandFailure(.usage, error.description)
                }
            }
        }
        return apis
    }
}
