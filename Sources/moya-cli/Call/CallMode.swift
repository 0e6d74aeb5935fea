/// What a call prints of its case: the response (plain), the items of every page (`--all`) or the
/// captures (`--capture`). The three take one road, resolve → build → run (see
/// `CallInvocation.run`); this is where they part.
enum CallMode {
    case plain
    case paged
    case captured

    init(_ paging: PagingOptions) {
        self = paging.all ? .paged : paging.capture ? .captured : .plain
    }

    /// Where a download case's file goes: `--output` and `--force` for a plain call; a paged or
    /// captured call reads the response, so the case's destination stands (`--output` is refused
    /// with them, `--force` has no effect).
    func download(_ output: OutputOptions) -> DownloadOverride {
        switch self {
        case .plain: DownloadOverride(path: output.output, overwrites: output.force)
        case .paged, .captured: .none
        }
    }

    /// See `CaseRequest.checksOverridesBeforeBuilding`.
    var checksOverridesBeforeBuilding: Bool { self != .plain }

    func run(_ call: PreparedCall) throws {
        switch self {
        case .plain: try PlainCall(call: call).run()
        case .paged: try PagedCall(call).run()
        case .captured: try CapturedCall(call: call).run()
        }
    }
}
