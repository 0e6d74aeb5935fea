import MoyaKit
import Paging
import Sending
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
        let stub = invocation.stubOptions
        var walk = PageWalk(
            pagination: pagination, baseURL: call.target.baseURL.absoluteString,
            maximumPages: invocation.pagingOptions.pageLimit)
        var next: NextPage?
        while true {
            let pageNumber = walk.pageNumber
            let target = try self.target(forPage: pageNumber, at: next)
            var runner = try call.runner(
                for: target, override: pageNumber == 1 ? call.override() : nil, rateLimitRetries: 3)
            let response = try runner.collectedResponse(
                limit: invocation.requestOptions.maxBodySize.bytes,
                failedValidation: {
                    "\(api.name).\(spec.name): page \(pageNumber): HTTP \($0) failed the case's validation"
                        + Self.printed(writer)
                },
                transportFailure: { "page \(pageNumber): " + $0 + Self.printed(writer) })
            let redactor = runner.redactor
            let stop = { (problem: String) in
                CommandFailure(
                    .transportFailure,
                    redactor.redact("\(api.name).\(spec.name): page \(pageNumber)" + problem + Self.printed(writer)))
            }
            let step = walk.step(
                headers: PageWalk.fields(of: response), body: response.data,
                requestURL: response.request?.url?.absoluteString ?? runner.target.url,
                answeringURL: stub.stub ? nil : response.response?.url?.absoluteString)
            guard case .page(let page, let after) = step else {
                if case .unreadable(let error) = step { throw stop(": \(error)") }
                return
            }
            writer.write(itemsOf: page.itemArray)
            if let failure = StandardStream.failure {
                throw CommandFailure(ResponseWriter.status(for: failure), failure.message)
            }
            switch after {
            case .finished:
                return
            case .nextProblem(let problem):
                throw stop(": \(problem)")
            case .reachedLimit(let count):
                throw CommandFailure(
                    .morePages,
                    "stopped after \(count) page\(count == 1 ? "" : "s") (--max-pages \(count)); "
                        + "the server has more; raise --max-pages to get them" + Self.printed(writer))
            case .loop(let repeated):
                throw stop(
                    " points to a page fetched before (\(Self.display(repeated))); "
                        + "stopping, as the server would page forever")
            case .fetch(let found):
                next = found
            }
        }
    }

    /// The target of page `number`, at `next` after page 1 (`DynamicTarget.page(at:)`, the rule
    /// `check --all` follows too); when stubbed, answered by the sample `page<number>` (page 1:
    /// `--sample`, else `page1` when there is one, else the default).
    private func target(forPage number: Int, at next: NextPage?) throws -> DynamicTarget {
        let (api, spec, invocation) = (call.api, call.spec, call.invocation)
        let first = call.target
        guard invocation.stubOptions.stub else { return next.map { first.page(at: $0.url) } ?? first }
        let sampleName: String
        if number == 1 {
            if invocation.stubOptions.sample != nil || !spec.samples.contains(where: { $0.name == "page1" }) {
                return first
            }
            sampleName = PageSample.name(forPage: 1)
        } else {
            do {
                sampleName = try PageSample.name(forPage: number, in: spec)
            } catch {
                throw CommandFailure(
                    .invalidTargetFile,
                    "\(api.name).\(spec.name): \(error.message(marksSample: true)); "
                        + "--stub --all answers page N with the sample pageN (\(api.file))")
            }
        }
        let target = try CaseResolution.build(
            call.resolved,
            settings: TargetSettings(
                environment: call.environment, request: invocation.requestOptions,
                stub: StubOptions(stub: true, sample: sampleName)))
        return next.map { target.page(at: $0.url) } ?? target
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
