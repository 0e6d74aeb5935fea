import CCurl

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What libcurl counted about a finished transfer besides its timing: the sizes, speeds and
/// peer that curl's `-w` variables name (`size_download`, `speed_upload`, `remote_ip`...).
public struct TransferMetrics: Sendable, Hashable {
    /// Request sent, body upload about to begin (`time_pretransfer`), in seconds.
    public var preTransfer: TimeInterval = 0
    /// Body bytes received (`size_download`), after decompression as libcurl counts them.
    public var downloadedBytes: Int64 = 0
    /// Body bytes sent (`size_upload`).
    public var uploadedBytes: Int64 = 0
    /// Header bytes received, every head of the transfer (`size_header`).
    public var headerBytes: Int = 0
    /// Request bytes sent, heads and bodies (`size_request`).
    public var requestBytes: Int = 0
    /// Average download speed, bytes a second (`speed_download`).
    public var downloadSpeed: Int64 = 0
    /// Average upload speed, bytes a second (`speed_upload`).
    public var uploadSpeed: Int64 = 0
    /// Redirects followed (`num_redirects`).
    public var redirectCount: Int = 0
    /// The address and port of the last connection (`remote_ip`, `remote_port`).
    public var remoteAddress: String = ""
    public var remotePort: Int = 0

    /// No transfer: all zero.
    public init() {}

    /// The counters of `easy`, read once its transfer ended.
    init(reading easy: EasyHandle) {
        preTransfer = easy.info(seconds: CURLINFO_PRETRANSFER_TIME_T)
        downloadedBytes = easy.info(bytes: CURLINFO_SIZE_DOWNLOAD_T)
        uploadedBytes = easy.info(bytes: CURLINFO_SIZE_UPLOAD_T)
        headerBytes = easy.info(long: CURLINFO_HEADER_SIZE)
        requestBytes = easy.info(long: CURLINFO_REQUEST_SIZE)
        downloadSpeed = easy.info(bytes: CURLINFO_SPEED_DOWNLOAD_T)
        uploadSpeed = easy.info(bytes: CURLINFO_SPEED_UPLOAD_T)
        redirectCount = easy.info(long: CURLINFO_REDIRECT_COUNT)
        remoteAddress = easy.info(string: CURLINFO_PRIMARY_IP) ?? ""
        remotePort = easy.info(long: CURLINFO_PRIMARY_PORT)
    }
}
