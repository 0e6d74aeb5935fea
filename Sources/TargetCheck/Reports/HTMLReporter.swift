import TextSafety

/// `--report html:FILE`: one self-contained page a person reads: the run's summary, then a row per
/// check (failed first, each a `<details>` that opens to its request line, failed assertions,
/// drifts, reasons and response excerpt). Styles are inline and a Content-Security-Policy forbids
/// any fetch, so the page works from a CI artifact store offline; without JavaScript everything is
/// shown, with it a bar filters the rows by outcome. Text is what the other reports hold (secrets
/// redacted), escaped for HTML.
enum HTMLReporter {
    static func render(_ summary: CheckSummary) -> String {
        let failed = summary.count(.failed) + summary.invalidFiles.count
        let total = summary.results.count + summary.invalidFiles.count
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>moya-cli check: \(failed) failed of \(total)</title>
            <style>\(style)</style>
            </head>
            <body>
            <h1>moya-cli check</h1>

            """
        html +=
            "<p id=\"summary\">\(summary.isLive ? "live" : "offline")"
            + (summary.shard.map { ", shard \($0.index) of \($0.count)" } ?? "")
            + ": <b>\(total)</b> checks, <span class=\"o-failed\">\(failed) failed</span>, "
            + "<span class=\"o-passed\">\(summary.count(.passed)) passed</span>, "
            + "\(summary.count(.skipped)) skipped, \(summary.count(.notCovered)) not covered"
            + (summary.invalidFiles.isEmpty ? "" : " (\(summary.invalidFiles.count) invalid target files)")
            + " in \(HumanReporter.decimal(summary.duration, places: 3)) s</p>\n"
        html += """
            <p id="filters" hidden>Show: <button data-filter="all" class="on">all</button> <button data-filter="failed">failed</button> <button data-filter="passed">passed</button> <button data-filter="skipped">skipped</button> <button data-filter="not-covered">not covered</button></p>
            <div id="checks">

            """
        for file in summary.invalidFiles {
            html += "<details class=\"check\" data-outcome=\"failed\" open><summary>"
            html +=
                "<span class=\"badge o-failed\">fail</span> <code>\(escaped(file.id))</code> invalid target file</summary>\n"
            html +=
                "<ul class=\"reasons\">" + file.problems.map { "<li>\(escaped($0))</li>" }.joined()
                + "</ul></details>\n"
        }
        // Failed first, then the rest in plan order.
        let entries = Array(zip(summary.items, summary.results))
        let ordered = entries.filter { $0.1.outcome == .failed } + entries.filter { $0.1.outcome != .failed }
        for (item, result) in ordered { html += row(item, result) }
        html += "</div>\n<script>\(script)</script>\n</body>\n</html>\n"
        return html
    }

    static func row(_ item: CheckItem, _ result: CheckResult) -> String {
        let outcome = result.outcome.rawValue
        let isFailed = result.outcome == .failed
        var html = "<details class=\"check\" data-outcome=\"\(outcome)\"\(isFailed ? " open" : "")><summary>"
        html += "<span class=\"badge o-\(outcome)\">\(result.outcome.word)</span> <code>\(escaped(item.id))</code>"
        if let status = result.statusCode { html += " <span class=\"status\">\(status)</span>" }
        if let duration = result.duration {
            html += " <span class=\"time\">\(escaped(HumanReporter.duration(duration)))</span>"
        }
        if let kind = result.failureKind { html += " <span class=\"kind\">\(kind.rawValue)</span>" }
        html += "</summary>\n<div class=\"detail\">"
        if let request = result.request {
            html += "<p class=\"request\"><code>\(escaped(request.method)) \(escaped(request.url))</code></p>"
        }
        if !result.assertions.isEmpty {
            html +=
                "<h3>Failed assertions</h3><table class=\"assertions\"><tr><th>subject</th><th>expected</th><th>found</th></tr>"
            for assertion in result.assertions {
                html +=
                    "<tr><td><code>\(escaped(assertion.subject))</code></td><td>\(escaped(assertion.expected))</td>"
                    + "<td>\(escaped(assertion.found))</td></tr>"
            }
            html += "</table>"
        }
        if !result.drifts.isEmpty {
            html += "<h3>Drifts</h3><ul class=\"drifts\">"
            html += result.drifts.map { "<li><code>\(escaped($0.description))</code></li>" }.joined()
            html += "</ul>"
        }
        if !result.reasons.isEmpty {
            html += "<ul class=\"reasons\">" + result.reasons.map { "<li>\(escaped($0))</li>" }.joined() + "</ul>"
        }
        if let excerpt = result.responseExcerpt, !excerpt.isEmpty {
            html += "<h3>Response</h3><pre class=\"excerpt\">\(escaped(excerpt))</pre>"
        }
        return html + "</div></details>\n"
    }

    static func escaped(_ text: String) -> String { XMLText.escaped(text) }

    static let style = """
        body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:1.5em;color:#1d1d1f;background:#fff}\
        h1{font-size:1.4em;margin:0 0 .3em}h3{font-size:1em;margin:.8em 0 .3em}\
        code,pre{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:13px}\
        details.check{border:1px solid #d0d0d7;border-radius:6px;margin:.4em 0;padding:.3em .7em}\
        details.check[data-outcome=failed]{border-color:#d33;background:#fff6f6}\
        summary{cursor:pointer}.badge{display:inline-block;min-width:4.5em;text-align:center;border-radius:4px;\
        color:#fff;font-weight:600;padding:0 .4em}.o-passed{background:#1a7f37}.o-failed{background:#c62828}\
        .o-skipped,.o-not-covered{background:#777}span.o-passed,span.o-failed{color:#fff;padding:0 .3em;border-radius:3px}\
        .status,.time,.kind{color:#555;margin-left:.6em}table.assertions{border-collapse:collapse;margin:.3em 0}\
        table.assertions td,table.assertions th{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}\
        pre.excerpt{background:#f4f4f6;padding:.6em;overflow:auto;max-height:24em;white-space:pre-wrap}\
        #filters button{border:1px solid #aaa;background:#f4f4f6;border-radius:4px;padding:.1em .6em;cursor:pointer}\
        #filters button.on{background:#1d1d1f;color:#fff}
        """

    static let script = """
        (function(){var bar=document.getElementById('filters');bar.hidden=false;\
        var buttons=bar.querySelectorAll('button');\
        buttons.forEach(function(button){button.addEventListener('click',function(){\
        var wanted=button.getAttribute('data-filter');\
        buttons.forEach(function(other){other.classList.toggle('on',other===button)});\
        document.querySelectorAll('details.check').forEach(function(row){\
        row.hidden=!(wanted==='all'||row.getAttribute('data-outcome')===wanted)})})});\
        var query=location.hash.match(/^#show=([a-z-]+)$/);\
        if(query){var pick=bar.querySelector('button[data-filter="'+query[1]+'"]');if(pick){pick.click()}}})();
        """
}
