import FileIO
import TargetAuth
import TargetModel
import TargetSpec
import TextSafety

extension CredentialOptions {
    /// The most a netrc file may hold.
    static let netrcLimit = 1 << 20

    /// Whether `-n`, `--netrc-optional` or `--netrc-file` asks for the netrc.
    var readsNetrc: Bool { netrc || netrcOptional || netrcFile != nil }

    /// The credential the netrc has for `target`'s host, when it is asked for and nothing else
    /// gives one (the case sends no auth, and no -u or --bearer): basic auth, redacted as -u's.
    /// A missing file is an error (64) unless `--netrc-optional`; one readable by others gets a
    /// warning, as it holds passwords; one that cannot be read as a netrc exits 65 with its line.
    func netrcCredential(for target: DynamicTarget, environment: [String: String]) throws -> CommandLineCredential? {
        guard readsNetrc else { return nil }
        let path = netrcFile ?? ((environment["HOME"] ?? "") + "/.netrc")
        let shown = netrcFile.map { DisplayText.escaped($0) } ?? "~/.netrc"
        switch InputFile.readSmallRegularFile(path, limit: Self.netrcLimit) {
        case .missing:
            if netrcOptional && netrcFile == nil { return nil }
            throw CommandFailure(.usage, "\(netrcFile == nil ? "--netrc" : "--netrc-file"): \(shown) does not exist")
        case .refused(let why):
            throw CommandFailure(.usage, "cannot read \(shown) as a netrc: \(why)")
        case .contents(let bytes, let permissions, _):
            if permissions & 0o077 != 0 {
                StandardStream.error.write(
                    "moya-cli: warning: \(shown) is readable or writable by others (mode \(String(permissions, radix: 8))); it holds passwords: chmod 600 \(shown)\n"
                )
            }
            let netrc: NetrcFile
            do throws(NetrcFile.ParseError) {
                netrc = try NetrcFile(parsing: String(decoding: bytes, as: UTF8.self))
            } catch {
                throw CommandFailure(.invalidTargetFile, "\(shown):\(error.line): \(error.message)")
            }
            guard let host = ConnectionPinning.host(ofURL: target.url),
                let found = netrc.credential(for: host)
            else { return nil }
            return .basic(user: found.login, password: found.password)
        }
    }
}
