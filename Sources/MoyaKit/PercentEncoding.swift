import TextSafety

/// Percent-encoding as Alamofire and RFC 3986 do it (TextSafety, where every escaping rule
/// lives), named here because MoyaKit's users and `generate swift`'s output call it.
public typealias PercentEncoding = TextSafety.PercentEncoding
