import Foundation

/// The files `NginxTestServer` serves, and its nginx configuration.
extension NginxTestServer {
    /// `/to-cleartext?port=P` answers `302` to `http://127.0.0.1:P/anything/downgraded`.
    ///
    /// The body of `/hello.json`.
    public static let helloJSON = Data(#"{"greeting":"hello","over":"nginx"}"#.utf8 + [0x0A])

    /// The size of `/bytes.bin`, whose contents are `TestBytes.data(count: bytesFileSize)`:
    /// large enough to span many HTTP/2 DATA frames and flow-control windows.
    public static let bytesFileSize = 1_000_003

    /// How many numbered files there are: `/numbered/0.json` … `/numbered/<count - 1>.json`.
    public static let numberedFileCount = 32

    /// The body of `/numbered/<index>.json`, so a test can tell each response apart.
    public static func numberedJSON(_ index: Int) -> Data {
        Data(#"{"index":\#(index)}"#.utf8 + [0x0A])
    }

    static func writeSite(in root: URL) throws {
        let numbered = root.appendingPathComponent("numbered")
        try FileManager.default.createDirectory(at: numbered, withIntermediateDirectories: true)
        try helloJSON.write(to: root.appendingPathComponent("hello.json"))
        try TestBytes.data(count: bytesFileSize).write(to: root.appendingPathComponent("bytes.bin"))
        for index in 0..<numberedFileCount {
            try numberedJSON(index).write(to: numbered.appendingPathComponent("\(index).json"))
        }
    }

    /// The whole configuration: one process, everything (logs, pid, temporary files) inside
    /// `folder`, so nginx needs neither root nor Debian's /etc/nginx, /var/lib/nginx, /run.
    static func configurationText(
        folder: URL, cleartextPort: UInt16, securePort: UInt16,
        certificates: TLSTestServer.Certificates
    ) -> String {
        let path = { (name: String) in folder.appendingPathComponent(name).path }
        // `listen … http2` is the nginx 1.22 spelling (Debian 12); later versions accept it with
        // a deprecation warning.
        return """
            daemon off;
            master_process off;
            pid \(path("nginx.pid"));
            error_log \(path("error.log")) warn;

            events {
                worker_connections 256;
            }

            http {
                types {
                    application/json json;
                    application/octet-stream bin;
                }
                default_type application/octet-stream;
                log_format moyakit '$connection $server_port $server_protocol $status $request_uri';
                access_log \(path("access.log")) moyakit;
                client_body_temp_path \(path("temp/body"));
                proxy_temp_path \(path("temp/proxy"));
                fastcgi_temp_path \(path("temp/fastcgi"));
                uwsgi_temp_path \(path("temp/uwsgi"));
                scgi_temp_path \(path("temp/scgi"));

                server {
                    listen 127.0.0.1:\(cleartextPort) http2;
                    listen 127.0.0.1:\(securePort) ssl http2;
                    server_name 127.0.0.1 localhost;
                    ssl_certificate \(certificates.serverCertificateFile);
                    ssl_certificate_key \(certificates.serverKeyFile);
                    root \(path("www"));
                    # A redirect to a cleartext HTTPTestServer on 127.0.0.1:PORT (a downgrade from https).
                    location = /to-cleartext {
                        return 302 http://127.0.0.1:$arg_port/anything/downgraded;
                    }
                }
            }

            """
    }
}
