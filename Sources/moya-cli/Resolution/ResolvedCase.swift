import TargetModel
import MoyaKit
import TargetSpec

/// A case the command line named, found in its API, with its values bound.
struct ResolvedCase {
    var api: APISpec
    var spec: CaseSpec
    var arguments: [String: ArgumentValue]
}
