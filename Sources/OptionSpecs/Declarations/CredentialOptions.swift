extension OptionGroupSpec {
    static let credential = OptionGroupSpec(
        name: "CredentialOptions", arguments: "CredentialArguments",
        doc: [
            "One-off credentials for one request (`call`, `curl`): they replace the file's auth, so a",
            "basic-auth or bearer call needs no variable and no edit of the file."
        ],
        items: [
            .option(
                "user", "-u", valueName: "user[:password]", type: "String?",
                help:
                    "Send HTTP basic auth as USER instead of the file's auth, for this call only (as curl -u); without :PASSWORD, asks for it on the terminal (not echoed). The password is redacted like the file's secrets.",
                doc: [
                    "`-u USER[:PASSWORD]`. Short only: `--user` stays free for a case value named `user`",
                    "(httpbin's `basicAuth --user bob`), as every unknown `--name` is."
                ],
                sample: "alice:pw"),
            .flag(
                "digest", "--digest",
                help:
                    "With -u: answer the server's Digest challenge (RFC 7616, MD5 or SHA-256) instead of sending basic auth; the password is never sent itself (as curl --digest)."
            ),
            .option(
                "bearer", "--bearer", valueName: "token", type: "String?",
                help:
                    "Send 'Authorization: Bearer TOKEN' instead of the file's auth, for this call only (@FILE: the file's one line, -: standard input's). Redacted like the file's secrets.",
                doc: ["`--bearer TOKEN|@FILE|-`."], sample: "tok"),
            .flag(
                "netrc", "-n", "--netrc",
                help:
                    "As curl's: when neither the file's auth nor -u/--bearer gives credentials, send the login and password ~/.netrc has for the host (basic auth, redacted); a missing ~/.netrc exits 64."
            ),
            .flag(
                "netrcOptional", "--netrc-optional", help: "As --netrc, and no ~/.netrc is no error (as curl's)."),
            .option(
                "netrcFile", "--netrc-file", valueName: "file", type: "String?",
                help: "As --netrc, reading FILE instead of ~/.netrc (as curl's).", sample: "netrc")
        ],
        folder: "Options")
}
