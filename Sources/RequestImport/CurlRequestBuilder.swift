import FoundationEssentials
import TargetModel

/// Makes the request curl would send from a ``CurlCommand``, by curl's own rules: the method
/// from `-X`, `-d`, `-F`, `-T`, `-I`, `-G`; data options joined with `&` (`--json` pieces
/// concatenated); `-d @file` without CR and LF, `--data-binary @file` as it is; `--data-urlencode`
/// and `--url-query` encoded as curl encodes; the default `Content-Type` of a data body; `--json`'s
/// `Content-Type` and `Accept`; `-u`, `--oauth2-bearer` and a URL's user info as an
/// `Authorization` header; `-b` as `Cookie`. Credentials are marked secret.
package struct CurlRequestBuilder {
    let files: ReferencedFiles

    package init(files: ReferencedFiles) {
        self.files = files
    }

    private struct DataPiece {
        var bytes: [UInt8]
        var isJSON: Bool
    }

    package func request(from command: CurlCommand) throws(RequestImportError) -> ImportedRequest {
        guard let urlWord = command.urls.first else {
            throw RequestImportError("the curl command has no URL", at: command.place)
        }
        if command.urls.count > 1 {
            throw RequestImportError(
                "the curl command has \(command.urls.count) URLs; give each its own command", at: command.urls[1].place)
        }
        var notes: [(place: TextPlace, message: String)] = []
        var explicitMethod: String?
        var headers: [(name: String, value: String, isSecret: Bool, place: TextPlace)] = []
        var removedHeaders: [String] = []
        var data: [DataPiece] = []
        var parts: [ImportedRequest.Part] = []
        var upload: (path: String, place: TextPlace)?
        var userAgent: String?
        var referer: String?
        var cookies: [String] = []
        var credential: (value: String, place: TextPlace)?
        var urlQueries: [[UInt8]] = []
        var usesGet = false
        var usesHead = false
        var globOff = false
        var pathAsIs = false
        for given in command.options {
            let argument = given.argument ?? ShellWord("")
            if argument.hasExpansion {
                notes.append(
                    (given.place, "\(given.spelling)'s argument holds $(…), `…` or $NAME: kept as text, never run"))
            }
            switch given.option {
            case .method: explicitMethod = try Self.text(argument, of: given)
            case .header:
                let text = try Self.text(argument, of: given)
                if text.hasPrefix("@") {
                    throw RequestImportError(
                        "\(given.spelling) @FILE reads headers from a file; write the headers in the command",
                        at: given.place)
                }
                if let header = try Self.header(text, at: given.place) {
                    headers.append((header.name, header.value, false, given.place))
                } else {
                    let name = String(text.dropLast()).trimmingSpaces
                    removedHeaders.append(name.lowercased())
                    notes.append(
                        (
                            given.place,
                            "\(given.spelling) '\(name):' removes a header curl adds; a case cannot remove one"
                        ))
                }
            case .userAgent: userAgent = try Self.text(argument, of: given)
            case .referer:
                var text = try Self.text(argument, of: given)
                if text.hasSuffix(";auto") {
                    text.removeLast(5)
                    notes.append((given.place, "-e ';auto' (a Referer on redirects) is not imported"))
                }
                referer = text
            case .cookie:
                let text = try Self.text(argument, of: given)
                if text.contains("=") {
                    cookies.append(text)
                } else {
                    notes.append((given.place, "-b \(text) names a cookie file; it is not read"))
                }
            case .data, .dataASCII:
                var bytes = argument.bytes
                if bytes.first == UInt8(ascii: "@") {
                    bytes = try files.read(String(decoding: bytes.dropFirst(), as: UTF8.self), at: given.place)
                    bytes.removeAll { $0 == 0x0D || $0 == 0x0A }
                }
                data.append(DataPiece(bytes: bytes, isJSON: false))
            case .dataRaw: data.append(DataPiece(bytes: argument.bytes, isJSON: false))
            case .dataBinary, .json:
                var bytes = argument.bytes
                if bytes.first == UInt8(ascii: "@") {
                    bytes = try files.read(String(decoding: bytes.dropFirst(), as: UTF8.self), at: given.place)
                }
                data.append(DataPiece(bytes: bytes, isJSON: given.option == .json))
            case .dataURLEncode:
                data.append(DataPiece(bytes: try urlEncoded(argument.bytes, at: given.place), isJSON: false))
            case .urlQuery:
                if argument.bytes.first == UInt8(ascii: "+") {
                    urlQueries.append(Array(argument.bytes.dropFirst()))
                } else {
                    urlQueries.append(try urlEncoded(argument.bytes, at: given.place))
                }
            case .form:
                parts.append(try formPart(try Self.text(argument, of: given), at: given.place))
            case .formString:
                let text = try Self.text(argument, of: given)
                guard let equals = text.firstIndex(of: "=") else {
                    throw RequestImportError("\(given.spelling) needs NAME=VALUE", at: given.place)
                }
                parts.append(
                    ImportedRequest.Part(
                        name: String(text[..<equals]), content: .text(Array(text[text.index(after: equals)...].utf8))))
            case .uploadFile:
                let path = try Self.text(argument, of: given)
                guard path != "-", path != "." else {
                    throw RequestImportError(
                        "-T \(path) uploads standard input; a case uploads a file", at: given.place)
                }
                upload = (path, given.place)
            case .user: credential = (try Self.text(argument, of: given), given.place)
            case .oauth2Bearer:
                headers.append(("Authorization", "Bearer " + (try Self.text(argument, of: given)), true, given.place))
            case .get: usesGet = true
            case .head: usesHead = true
            case .globOff: globOff = true
            case .pathAsIs: pathAsIs = true
            case .compressed, .location: break
            case .insecure:
                notes.append(
                    (given.place, "\(given.spelling) is not imported: moya-cli always verifies TLS certificates"))
            case .ignored(let why): notes.append((given.place, "\(given.spelling) is not imported: \(why)"))
            case .config:
                throw RequestImportError(
                    "\(given.spelling) reads options from a file; write them in the command", at: given.place)
            case .next:
                throw RequestImportError(
                    "\(given.spelling) starts another request in the same command; give each its own command",
                    at: given.place)
            case .url: break
            }
        }

        let urlText = try Self.text(urlWord, what: "the URL")
        if !globOff, urlText.contains(where: { "{}[]".contains($0) }), !urlText.hasPrefix("[") {
            throw RequestImportError(
                "curl would expand {…} or […] in this URL into several requests; add -g (--globoff) to import it as written",
                at: urlWord.place)
        }
        var url: RequestURL
        do throws(RequestImportError) {
            url = try RequestURL(urlText)
        } catch {
            throw RequestImportError(error.message, at: urlWord.place)
        }
        if !urlText.contains("://") {
            notes.append((urlWord.place, "the URL has no scheme; http:// is assumed, as curl does"))
        }
        if !pathAsIs, url.pathWithoutDotSegments != url.path {
            url.path = url.pathWithoutDotSegments
            notes.append((urlWord.place, "the path's . and .. segments are removed, as curl sends it"))
        }
        if let userInfo = url.userInfo, credential == nil {
            credential = (Self.percentDecoded(userInfo, plusIsSpace: false), urlWord.place)
        }

        // What goes where, by curl's rules.
        let hasData = !data.isEmpty
        let kinds = [hasData && !usesGet, !parts.isEmpty, upload != nil].filter { $0 }.count
        if kinds > 1 || (usesHead && (kinds > 0)) {
            throw RequestImportError(
                "the command mixes -d, -F, -T or -I, which curl refuses: 'You can only select one HTTP request method!'",
                at: command.place)
        }
        var body = ImportedRequest.Body.none
        var method = usesHead ? "HEAD" : "GET"
        var joined: [UInt8] = []
        for (offset, piece) in data.enumerated() {
            if offset > 0 && !piece.isJSON { joined.append(UInt8(ascii: "&")) }
            joined += piece.bytes
        }
        var queryTexts = urlQueries
        if hasData && usesGet {
            queryTexts.append(joined)
        } else if hasData {
            method = "POST"
            body = .bytes(joined)
        } else if !parts.isEmpty {
            method = "POST"
            body = .multipart(parts)
        } else if let upload {
            method = "PUT"
            var path = upload.path
            if url.path.hasSuffix("/") {
                path = String(path.split(separator: "/").last ?? "")
                url.path += Self.percentEncodedPathSegment(path)
                notes.append((upload.place, "-T to a URL ending in / puts the file's name after it, as curl does"))
            }
            body = .upload(path: upload.path)
        }
        if !queryTexts.isEmpty {
            let added = queryTexts.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "&")
            url.query = url.query.map { $0.isEmpty ? added : $0 + "&" + added } ?? added
        }
        if let explicitMethod {
            guard !explicitMethod.isEmpty, explicitMethod.utf8.allSatisfy(Self.isTokenByte) else {
                throw RequestImportError("-X '\(explicitMethod)' is not an HTTP method", at: command.place)
            }
            method = explicitMethod
        }

        // Headers curl adds, unless the command gave them.
        func has(_ name: String) -> Bool {
            headers.contains { $0.name.lowercased() == name } || removedHeaders.contains(name)
        }
        if let userAgent, !has("user-agent") {
            if userAgent.isEmpty {
                notes.append((command.place, "-A '' removes the User-Agent; a case cannot remove it"))
            } else {
                headers.append(("User-Agent", userAgent, false, command.place))
            }
        }
        if let referer, !has("referer") { headers.append(("Referer", referer, false, command.place)) }
        if !cookies.isEmpty, !has("cookie") {
            // curl joins several -b with ';' alone.
            headers.append(("Cookie", cookies.joined(separator: ";"), true, command.place))
        }
        if let credential, !has("authorization") {
            if !credential.value.contains(":") {
                notes.append(
                    (credential.place, "-u without a password: curl would ask for it; the header's variable holds both")
                )
            }
            let encoded = Data((credential.value.contains(":") ? credential.value : credential.value + ":").utf8)
                .base64EncodedString()
            headers.append(("Authorization", "Basic " + encoded, true, credential.place))
        }
        if case .bytes = body {
            if data.contains(where: \.isJSON) {
                if !has("content-type") { headers.append(("Content-Type", "application/json", false, command.place)) }
                if !has("accept") { headers.append(("Accept", "application/json", false, command.place)) }
            } else if !has("content-type") {
                headers.append(("Content-Type", "application/x-www-form-urlencoded", false, command.place))
            }
        }

        var request = ImportedRequest(place: command.place, method: method, url: url)
        request.headers = Self.joined(headers, notes: &notes)
        request.body = body
        request.query = Self.queryPairs(url.query)
        if !request.query.isEmpty {
            notes.append(
                (
                    urlWord.place,
                    "the query becomes the case's parameters: sent sorted by name and percent-encoded as moya-cli does"
                ))
        }
        request.notes = notes
        return request
    }
}
