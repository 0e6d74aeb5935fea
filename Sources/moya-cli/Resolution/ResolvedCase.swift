import MoyaKit
import TargetModel
import TargetSpec

/// A case the command line named, found in its API, with its values bound.
struct ResolvedCase {
    var api: APISpec
    var spec: CaseSpec
    var arguments: [String: ArgumentValue]
    /// `-u` or `--bearer`, read once: every target built for the case (each page) sends it.
    var credential: CommandLineCredential? = nil
}
