import CurlTransport

// The transport's types that MoyaKit's own API is made of, named here so that `import MoyaKit`
// is all a program needs (as Moya names Alamofire's `Session`): CurlTransport is no product.

public typealias Session = CurlTransport.Session
public typealias SessionConfiguration = CurlTransport.SessionConfiguration
public typealias TransferTrace = CurlTransport.TransferTrace
public typealias TransportError = CurlTransport.TransportError
public typealias URLRequest = CurlTransport.URLRequest
public typealias MultipartFormBodyPart = CurlTransport.MultipartFormBodyPart
public typealias SensitiveHeaders = CurlTransport.SensitiveHeaders
public typealias HTTPResponseHead = CurlTransport.HTTPResponseHead
public typealias TransferProgress = CurlTransport.TransferProgress
public typealias Timing = CurlTransport.Timing
public typealias TransferMetrics = CurlTransport.TransferMetrics
public typealias ResponseBodyHandling = CurlTransport.ResponseBodyHandling
public typealias ResponseBodyConsumer = CurlTransport.ResponseBodyConsumer
public typealias Cancellable = CurlTransport.Cancellable
public typealias RequestLatch = CurlTransport.RequestLatch
public typealias CookieStore = CurlTransport.CookieStore
public typealias Cookie = CurlTransport.Cookie
public typealias DigestCredential = CurlTransport.DigestCredential
