import MoyaKit
import TargetSpec
import TextSafety

/// A `trust` run: the store read (refused when it is not the user's alone), the grants changed,
/// the store written back whole; what was done on stdout, paths escaped for a terminal.
struct TrustRun {
    var paths: [String]
    var list: Bool
    var revoke: Bool

    func run() throws {
        let environment = ProcessEnvironment.current
        guard let store = TrustGrants.storePath(environment: environment) else {
            throw CommandFailure(.usage, "neither XDG_STATE_HOME nor HOME is an absolute path; set one")
        }
        var grants: TrustGrants
        do throws(TrustStoreError) {
            grants = try TrustGrants.load(from: store)
        } catch {
            throw CommandFailure(.cannotWriteOutput, error.description)
        }
        if list {
            for (grant, standing) in TrustGranting.standings(of: grants) {
                StandardStream.output.write("\(standing.rawValue)\t\(DisplayText.escaped(grant.path))\n")
            }
            return
        }
        var lines: [String] = []
        if revoke {
            for path in paths {
                let removed = TrustGranting.revoke(path, in: &grants)
                guard !removed.isEmpty else {
                    throw CommandFailure(
                        .usage, "\(DisplayText.escaped(path)) is not trusted by content; see 'moya-cli trust --list'")
                }
                lines += removed.map { "revoked \(DisplayText.escaped($0))" }
            }
        } else {
            do throws(TrustGranting.Refusal) {
                for path in paths {
                    let files = try TrustGranting.files(at: path)
                    lines += try TrustGranting.grant(files, in: &grants).map {
                        "trusted \(DisplayText.escaped($0.path)) (SHA-256 \($0.digest.prefix(16))...)"
                    }
                }
            } catch {
                throw CommandFailure(.usage, DisplayText.escaped(error.description))
            }
        }
        do throws(TrustStoreError) {
            try grants.save(to: store)
        } catch {
            throw CommandFailure(.cannotWriteOutput, error.description)
        }
        StandardStream.output.write(lines.joined(separator: "\n") + "\n")
    }
}
