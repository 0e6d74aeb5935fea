import MoyaKit
import Paging
import TargetModel
import TargetSpec
import TextSafety

/// `call … --all`: the case's pages one after another, their items streamed to stdout as one JSON
/// array (or JSON lines), until a page has no next one.
///
/// It stops, closing the array so what was printed stays valid JSON, at `--max-pages` (exit 9),
/// at a next page seen before (a loop; exit 1), at a next URL off the API's origin or a page
/// redirected off it (exit 1), and
/// at a page that fails (the failure's exit status); the message names the page.
struct PagedCall {
    var call: PreparedCall
    var pagination: Pagination

    /// The paged call of `call`'s case; a case without `pagination:` is a usage error.
    init(_ call: PreparedCall) throws {
        guard let pagination = call.api.pagination(for: call.spec) else {
            throw CommandFailure(
                .usage,
                "case '\(call.spec.name)' of API '\(call.api.name)' does not page; --all needs 'pagination:' on the case "
                    + "or the API (see moya-targets(5))")
        }
        self.call = call
        self.pagination = pagination
    }

    func run() throws {
        let (api, spec, invocation) = (call.api, call.spec, call.invocation)
        let writer = PageItemsWriter(
            isLines: invocation.outputOptions.format == .jsonl, keyPath: invocation.outputOptions.bodyKeyPath,
            escapesForTerminal: Terminal.isTerminal(StandardStream.output.fileDescriptor))
        defer { writer.finish() }
        let reader = PageReader(pagination: pagination, baseURL: call.target.baseURL.absoluteString)
        let stub = invocation.stubOptions
        var run: PagingRun?
        var nextURL: String?
        var pageNumber = 1
        while true {
            let target = try self.target(forPage: pageNumber)
            var runner = try call.runner(
                for: target, override: pageNumber == 1 ? call.override() : nil, pageURL: nextURL, rateLimitRetries: 3)
            let response = try runner.collectedResponse(
                limit: invocation.requestOptions.maxBodySize.bytes,
                failedValidation: {
                    "\(api.name).\(spec.name): page \(pageNumber): HTTP \($0) failed the case's validation"
                        + Self.printed(writer)
                },
                transportFailure: { "page \(pageNumber): " + $0 + Self.printed(writer) })
            let requestURL = response.request?.url?.absoluteString ?? nextURL ?? target.url
            if run == nil { run = PagingRun(maximumPages: invocation.pagingOptions.pageLimit, firstURL: requestURL) }
            let page: Page
            do {
                try reader.checkAnswer(from: stub.stub ? nil : response.response?.url?.absoluteString)
                page = try reader.read(headers: Self.fields(of: response), body: response.data, requestURL: requestURL)
            } catch {
                throw CommandFailure(
                    .transportFailure,
                    runner.redactor.redact(
                        "\(api.name).\(spec.name): page \(pageNumber): \(error)" + Self.printed(writer)))
            }
            writer.write(itemsOf: page.itemArray)
            if let failure = StandardStream.failure {
                throw CommandFailure(ResponseWriter.status(for: failure), failure.message)
            }
            if let problem = page.nextProblem {
                throw CommandFailure(
                    .transportFailure,
                    runner.redactor.redact(
                        "\(api.name).\(spec.name): page \(pageNumber): \(problem)" + Self.printed(writer)))
            }
            switch run?.advance(next: page.next) ?? .finished {
            case .finished:
                return
            case .reachedLimit(let count):
                throw CommandFailure(
                    .morePages,
                    "stopped after \(count) page\(count == 1 ? "" : "s") (--max-pages \(count)); "
                        + "the server has more; raise --max-pages to get them" + Self.printed(writer))
            case .loop(let next):
                throw CommandFailure(
                    .transportFailure,
                    runner.redactor.redact(
                        "\(api.name).\(spec.name): page \(pageNumber) points to a page fetched before (\(Self.display(next))); "
                            + "stopping, as the server would page forever" + Self.printed(writer)))
            case .fetch(let next):
                nextURL = next.url
                pageNumber += 1
            }
        }
    }

    /// The target of page `number`: the case's; when stubbed, answered by the sample `page<number>`
    /// (page 1: `--sample`, else `page1` when there is one, else the default).
    private func target(forPage number: Int) throws -> DynamicTarget {
        let (api, spec, invocation) = (call.api, call.spec, call.invocation)
        guard invocation.stubOptions.stub else { return call.target }
        let names = spec.samples.map(\.name)
        let sampleName: String?
        if number == 1 {
            if invocation.stubOptions.sample != nil || !names.contains("page1") { return call.target }
            sampleName = "page1"
        } else {
            sampleName = "page\(number)"
            guard names.contains("page\(number)") else {
                throw CommandFailure(
                    .invalidTargetFile,
                    "\(api.name).\(spec.name): page \(number - 1) (a sample) has a next page, but the case has "
                        + "no sample 'page\(number)'; --stub --all answers page N with the sample pageN (\(api.file))")
            }
        }
        return try CaseResolution.build(
            call.resolved,
            settings: TargetSettings(
                environment: call.environment, request: invocation.requestOptions,
                stub: StubOptions(stub: true, sample: sampleName)))
    }

    static func fields(of response: Response) -> [(name: String, value: String)] {
        response.response?.headers.map { ($0.name.rawName, $0.value) } ?? []
    }

    /// The next page as messages show it: its cursor, or its URL.
    static func display(_ next: NextPage) -> String {
        DisplayText.escaped(next.cursor.map { "cursor '\($0)'" } ?? next.url)
    }

    /// What was printed before a stop, so a script knows the array holds only part.
    static func printed(_ writer: PageItemsWriter) -> String {
        "; \(writer.itemCount) item\(writer.itemCount == 1 ? "" : "s") printed before"
    }
}
