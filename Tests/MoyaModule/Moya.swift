// Moya 15 cannot be built here (it needs Alamofire): this test-only module gives MoyaKit Moya's
// module name, and Moya 15's name for a multipart part, so that `moya-cli generate swift --module
// Moya` output compiles in GeneratedMoyaTests. What it cannot show is in moya-cli-generate(1), MOYA.
@_exported import MoyaKit

/// Moya 15's name for one part of a multipart body.
public typealias MultipartFormData = MoyaKit.MultipartFormBodyPart
