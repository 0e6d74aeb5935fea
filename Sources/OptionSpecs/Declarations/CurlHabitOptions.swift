extension CurlLetter {
    /// Every single-letter option of curl (`curl --help all`, curl 7.88 to 8), and what `call`,
    /// `curl`, `check` and `request` make of it. moya-cli(1) documents the table (curl's habits);
    /// a letter changed here changes there.
    package static let all: [CurlLetter] = [
        CurlLetter(
            "0", "--http1.0",
            .refused("-0: moya-cli does not send HTTP/1.0; libcurl speaks HTTP/1.1 or HTTP/2 with the server")),
        CurlLetter("1", "--tlsv1", .refused(tlsVersion("-1"))),
        CurlLetter("2", "--sslv2", .refused(tlsVersion("-2"))),
        CurlLetter("3", "--sslv3", .refused(tlsVersion("-3"))),
        CurlLetter("4", "--ipv4", .declared(missing: [])),
        CurlLetter("6", "--ipv6", .declared(missing: [])),
        CurlLetter(
            "#", "--progress-bar",
            .notAnOption("-#: a progress line shows on a terminal by itself (-s hides it); leave -# out")),
        CurlLetter(
            ":", "--next", .notAnOption("-: (--next): moya-cli sends one request per command line; leave -: out")),
        CurlLetter("a", "--append", .refused(notHTTP("-a"))),
        CurlLetter("A", "--user-agent", takesValue: true, .declared(missing: [])),
        CurlLetter(
            "b", "--cookie", takesValue: true,
            .refused("-b: send cookies as a header: -H 'Cookie: NAME=VALUE; NAME2=VALUE2'")),
        CurlLetter("B", "--use-ascii", .refused(notHTTP("-B"))),
        CurlLetter(
            "c", "--cookie-jar", takesValue: true,
            .refused("-c: moya-cli keeps no cookie jar; -i shows the response's Set-Cookie headers")),
        CurlLetter(
            "C", "--continue-at", takesValue: true,
            .refused("-C: resume a download case or -o FILE with --continue (it keeps FILE.part and asks for the rest)")
        ),
        CurlLetter(
            "d", "--data", takesValue: true,
            .declared(missing: [
                ("check", "-d: check sends each case's own body; change it in the case's task (see moya-targets(5))")
            ])),
        CurlLetter(
            "D", "--dump-header", takesValue: true,
            .declared(missing: [
                ("curl", "-D: moya-cli curl prints the command only; moya-cli call -D FILE writes the response head"),
                ("check", "-D: check reports each case, not its response; moya-cli call -D FILE writes one case's head")
            ])),
        CurlLetter("e", "--referer", takesValue: true, .declared(missing: [])),
        CurlLetter("E", "--cert", takesValue: true, .declared(missing: [])),
        CurlLetter("f", "--fail", .habit(refusedBy: ["call", "curl", "check", "request"])),
        CurlLetter(
            "F", "--form", takesValue: true,
            .refused(
                "-F: a multipart body is declared in the target file (a multipart task, see moya-targets(5)); request --form sends NAME=VALUE items as a urlencoded form"
            )),
        CurlLetter("g", "--globoff", .accepted("moya-cli expands no {} or [] in URLs")),
        CurlLetter("G", "--get", .habit(refusedBy: ["call", "curl", "check", "request"])),
        CurlLetter("h", "--help", .declared(missing: [])),
        CurlLetter("H", "--header", takesValue: true, .declared(missing: [])),
        CurlLetter(
            "i", "--include",
            .declared(missing: [
                (
                    "curl",
                    "-i: moya-cli curl prints the command only; moya-cli call -i prints the status line and headers before the body"
                ),
                (
                    "check",
                    "-i: check reports each case, not its response; moya-cli call -i prints one case's status line and headers"
                )
            ])),
        CurlLetter("I", "--head", .habit(refusedBy: ["curl", "check"])),
        CurlLetter(
            "j", "--junk-session-cookies", .refused("-j: moya-cli keeps no cookies between requests; leave -j out")),
        CurlLetter(
            "J", "--remote-header-name",
            .refused(
                "-J: moya-cli does not name files after the server's; write the body with -o FILE (a download case names its own destination)"
            )),
        CurlLetter("k", "--insecure", .declared(missing: [])),
        CurlLetter(
            "K", "--config", takesValue: true,
            .refused(
                "-K: moya-cli reads no curl config file; turn curl commands into cases with 'moya-cli import curl'")),
        CurlLetter("l", "--list-only", .refused(notHTTP("-l"))),
        CurlLetter("L", "--location", .habit(refusedBy: [])),
        CurlLetter("m", "--max-time", takesValue: true, .declared(missing: [])),
        CurlLetter("M", "--manual", .refused("-M: the manual is 'man moya-cli'; --help prints a command's options")),
        CurlLetter(
            "n", "--netrc",
            .declared(missing: [
                ("check", "-n: check sends each API's own auth, from its target file and variables")
            ])),
        CurlLetter("N", "--no-buffer", .accepted("a body going to a pipe or a terminal is written as it arrives")),
        CurlLetter(
            "o", "--output", takesValue: true,
            .declared(missing: [
                ("check", "-o: check writes no response bodies; --report FORMAT:FILE writes its report to FILE")
            ])),
        CurlLetter(
            "O", "--remote-name",
            .refused(
                "-O: moya-cli does not name files after the URL; write the body with -o FILE (a download case names its own destination)"
            )),
        CurlLetter(
            "p", "--proxytunnel",
            .declared(missing: [
                (
                    "curl",
                    "-p: moya-cli has no forced proxy tunnel (an https request goes through --proxy URL by CONNECT already); moya-cli call -p is HTTPie's --print"
                ),
                (
                    "check",
                    "-p: moya-cli has no forced proxy tunnel (an https request goes through --proxy URL by CONNECT already); moya-cli call -p is HTTPie's --print"
                )
            ])),
        CurlLetter("P", "--ftp-port", takesValue: true, .refused(notHTTP("-P"))),
        CurlLetter("q", "--disable", .accepted("moya-cli reads no .curlrc")),
        CurlLetter("Q", "--quote", takesValue: true, .refused(notHTTP("-Q"))),
        CurlLetter(
            "r", "--range", takesValue: true, .refused("-r: ask for a range with a header: -H 'Range: bytes=START-END'")
        ),
        CurlLetter(
            "R", "--remote-time", .refused("-R: moya-cli does not set a file's time from the server's; leave -R out")),
        CurlLetter(
            "s", "--silent",
            .declared(missing: [
                (
                    "check",
                    "-s: check has no quiet mode; its exit status (0, or 8 when a case failed) says whether every case passed, and --report FORMAT:FILE writes the details"
                )
            ])),
        CurlLetter("S", "--show-error", .declared(missing: [])),
        CurlLetter("t", "--telnet-option", takesValue: true, .refused(notHTTP("-t"))),
        CurlLetter(
            "T", "--upload-file", takesValue: true,
            .refused(
                "-T: an upload is declared in the target file (an upload task, see moya-targets(5)); --data @FILE sends a file's bytes as the body"
            )),
        CurlLetter(
            "u", "--user", takesValue: true,
            .declared(missing: [
                ("check", "-u: check sends each API's own auth, from its target file and variables")
            ])),
        CurlLetter(
            "U", "--proxy-user", takesValue: true,
            .refused("-U: give the proxy's credentials in its URL: --proxy http://USER:PASSWORD@HOST:PORT")),
        CurlLetter(
            "v", "--verbose",
            .declared(missing: [
                ("curl", "-v: moya-cli curl prints the command only; moya-cli call -v shows the exchange"),
                ("check", "-v: check reports each case, not its exchange; moya-cli call -v shows one case's")
            ])),
        CurlLetter("V", "--version", .refused("-V: moya-cli's version is 'moya-cli --version'")),
        CurlLetter(
            "w", "--write-out", takesValue: true,
            .declared(missing: [
                (
                    "curl",
                    "-w: moya-cli curl prints the command only; moya-cli call -w FORMAT prints the response's variables"
                ),
                ("check", "-w: check reports each case; --report json:FILE writes each one's status and timing")
            ])),
        CurlLetter("x", "--proxy", takesValue: true, .declared(missing: [])),
        CurlLetter("X", "--request", takesValue: true, .habit(refusedBy: ["check"])),
        CurlLetter("y", "--speed-time", takesValue: true, .refused(speed("-y"))),
        CurlLetter("Y", "--speed-limit", takesValue: true, .refused(speed("-Y"))),
        CurlLetter(
            "z", "--time-cond", takesValue: true,
            .refused("-z: send the condition as a header: -H 'If-Modified-Since: DATE'")),
        CurlLetter(
            "Z", "--parallel",
            .refused("-Z: a call sends one request; moya-cli check --jobs N checks N cases at a time"))
    ]

    static func tlsVersion(_ name: String) -> String {
        "\(name): give the oldest TLS version to accept with --tlsv1.2 or --tlsv1.3, the newest with --tls-max VERSION"
    }

    static func notHTTP(_ name: String) -> String {
        "\(name): an FTP, SFTP or TELNET option; moya-cli speaks HTTP only"
    }

    static func speed(_ name: String) -> String {
        "\(name): moya-cli has no speed limit; end a stalled transfer with --idle-timeout SECONDS (curl's --speed-limit 1 --speed-time SECONDS)"
    }

    /// The refused and accepted letters a group declares: every `.refused` and `.accepted` one.
    static var everywhere: [(CurlLetter, String?)] {
        all.compactMap { letter in
            switch letter.answer {
            case .refused(let message): return (letter, message)
            case .accepted: return (letter, nil)
            default: return nil
            }
        }
    }

    /// The declared letters `command` has no option for, with their refusal there.
    static func missing(in command: String) -> [(CurlLetter, String?)] {
        all.compactMap { letter in
            guard case .declared(let missing) = letter.answer,
                let message = missing.first(where: { $0.command == command })?.message
            else { return nil }
            return (letter, message)
        }
    }
}

extension OptionGroupSpec {
    static let curlHabit = OptionGroupSpec(
        name: "CurlHabitOptions", arguments: "CurlHabitArguments",
        doc: [
            "curl's single-letter options that a curl user types out of habit (`call`, `curl`, `check`,",
            "`request`): each is taken where curl's meaning fits here, or refused with the moya-cli way,",
            "instead of falling through to the case's values (`'-X' is not an int for value 'page'`). The",
            "letters moya-cli declares with curl's meaning are in their groups (`-d`, `-H`, `-u`, `-s`, `-A`,",
            "`-m`...); these are the rest, from the one table `CurlLetter.all`. Short names only, as curl users",
            "write them: a long `--get` or `--location` stays free for a case's value."
        ],
        items: [
            .option(
                "method", "-X", valueName: "method", type: "String?",
                help:
                    "As curl's: accepted when METHOD is the case's (request's METHOD); the case declares its method, so another is refused (see 'moya-cli request').",
                doc: ["`-X METHOD`: accepted when it is the case's method."], sample: "GET"),
            .flag(
                "location", "-L",
                help:
                    "As curl's: accepted and changes nothing, since redirects are followed unless the case says redirects: none (--no-follow turns that off).",
                doc: ["`-L`: redirects are followed already."]),
            .flag(
                "head", "-I",
                help:
                    "As curl's: print only the status line and headers (call: as --headers-only; request: sends HEAD, so METHOD may be left out).",
                doc: ["`-I`: headers only (`call`), or a HEAD request (`request`)."]),
            .flag(
                "get", "-G", help: "Refused: the case declares where its parameters go; use --query NAME=VALUE.",
                doc: ["`-G`: refused."]),
            .flag(
                "fail", "-f", help: "Refused: an HTTP error exits 3, 4 or 5 already (see moya-cli(1), EXIT STATUS).",
                doc: ["`-f`: refused."]),
            .curlRefusals(CurlLetter.everywhere, field: "refused")
        ] + CurlLetter.everywhere.map { OptionItem.curlLetter($0.0, message: $0.1, field: "refused") },
        validates: false,
        folder: "Options")

    /// The letters moya-cli declares elsewhere that `command` has no option for, refused there.
    static func curlLetters(missingIn command: String, name: String) -> OptionGroupSpec {
        let letters = CurlLetter.missing(in: command)
        return OptionGroupSpec(
            name: name, arguments: name.replacingAll("Options", with: "Arguments"),
            doc: [
                "The curl letters `\(command)` has no option for though moya-cli has (`CurlLetter.all`):",
                "each refused with the way to do it here."
            ],
            items: [.curlRefusals(letters, field: "refused")]
                + letters.map { OptionItem.curlLetter($0.0, message: $0.1, field: "refused") },
            validates: false,
            folder: "Options")
    }

    static let curlCommandLetters = curlLetters(missingIn: "curl", name: "CurlCommandLetterOptions")
    static let checkCurlLetters = curlLetters(missingIn: "check", name: "CheckCurlLetterOptions")
}
