import MoyaKit
import TargetCheck
import TargetModel
import TargetSpec

/// The APIs `check` runs over — the ones named, or every one found — and the target files that
/// could not be loaded, which the run reports as failed checks (and exits 65 for) while checking
/// the others.
enum CheckTargets {
    static func apis(named names: [String], loader: CatalogLoader, environmentName: String?) throws
        -> (apis: [APISpec], invalidFiles: [InvalidTargetFile])
    {
        let catalog = try loader.load()
        var apis: [APISpec] = []
        var invalidFiles: [String] = []
        if names.isEmpty {
            loader.printDiagnostics(of: catalog)
            apis = catalog.entries.compactMap(\.api)
            invalidFiles = catalog.files.filter { file in
                catalog.diagnostics.contains { $0.severity == .error && $0.file == file }
            }
            guard !apis.isEmpty || !invalidFiles.isEmpty else {
                throw CommandFailure(
                    .usage, "no target files found; name a file or folder with --targets, or put files in ./targets")
            }
        } else {
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
            loader.printDiagnostics(of: catalog, files: files)
            apis.removeAll { api in catalog.diagnostics.contains { $0.severity == .error && $0.file == api.file } }
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
        let invalid = invalidFiles.map { file in
            InvalidTargetFile(
                file: file, apiName: (catalog.entries + catalog.shadowed).first { $0.file == file }?.name,
                problems: catalog.diagnostics.filter { $0.severity == .error && $0.file == file }.map { diagnostic in
                    (diagnostic.mark.map { "\(diagnostic.file):\($0.line):\($0.column)" } ?? diagnostic.file) + ": "
                        + diagnostic.message
                })
        }
        return (apis, invalid)
    }
}
