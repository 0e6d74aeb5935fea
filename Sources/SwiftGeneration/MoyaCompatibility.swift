/// What the `--module Moya` output may not use: names MoyaKit has and Moya 15 does not (read from
/// Moya 15.0's sources; see moya-cli-generate(1), MOYA, for what the Moya output does instead).
package enum MoyaCompatibility {
    /// Names that appear only in MoyaKit output; `SwiftGenerationTests` checks the Moya output
    /// contains none of them.
    package static let moyaKitOnlyNames = [
        "PercentEncoding",  // MoyaKit's path-segment escaping; the Moya output carries its own
        "uploadCompositeFile",  // Moya 15 has no file body with URL parameters: the file is read into Data
        "commaSeparated",  // Alamofire's URLEncoding has no comma array encoding: the list is joined
        "PropertyListEncoding",  // Alamofire 5 dropped it: the Moya output encodes with PropertyListSerialization
        "MultipartFormBodyPart",  // Moya 15 calls a part MultipartFormData
        "TransportError",  // MoyaKit's network errors; Moya's sample errors are NSError
        "HTTPResponseHead"  // MoyaKit's response head; Moya's is HTTPURLResponse
    ]
}
