/// What a call prints of its case: the response (plain), the items of every page (`--all`) or the
/// captures (`--capture`). The three take one road, resolve → build → run (see
/// `CallInvocation.run`); a mode holds where they part.
///
/// A struct of values rather than an enum: see `CaseCommand`.
struct CallMode {
    /// Whether `--output` and `--force` say where a download case's file goes: a paged or captured
    /// call reads the response, so the case's destination stands (`--output` is refused with
    /// them, `--force` has no effect).
    let honoursDownloadOptions: Bool
    /// See `CaseRequest.checksOverridesBeforeBuilding`.
    let checksOverridesBeforeBuilding: Bool
    /// Sends the prepared call and prints what the mode prints.
    let run: (PreparedCall) throws -> Void

    static var plain: CallMode {
        CallMode(honoursDownloadOptions: true, checksOverridesBeforeBuilding: false) { try PlainCall(call: $0).run() }
    }

    static var paged: CallMode {
        CallMode(honoursDownloadOptions: false, checksOverridesBeforeBuilding: true) { try PagedCall($0).run() }
    }

    static var captured: CallMode {
        CallMode(honoursDownloadOptions: false, checksOverridesBeforeBuilding: true) {
            try CapturedCall(call: $0).run()
        }
    }

    /// The mode `--all` and `--capture` ask for.
    init(_ paging: PagingOptions) {
        self = paging.all ? .paged : paging.capture ? .captured : .plain
    }

    private init(
        honoursDownloadOptions: Bool, checksOverridesBeforeBuilding: Bool, run: @escaping (PreparedCall) throws -> Void
    ) {
        self.honoursDownloadOptions = honoursDownloadOptions
        self.checksOverridesBeforeBuilding = checksOverridesBeforeBuilding
        self.run = run
    }

    /// Where a download case's file goes: `-o FILE` is replaced as curl replaces it; the case's
    /// own destination only with `--force` (else a rerun saves to a numbered name).
    func download(_ output: OutputOptions) -> DownloadOverride {
        honoursDownloadOptions
            ? DownloadOverride(path: output.output, overwrites: output.force || output.output != nil) : .none
    }
}
