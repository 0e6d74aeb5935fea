import TargetModel
import TargetSpec
import TextSafety
import XCTest

@testable import moya_cli

/// Issue 16: `TextTable.render` lays ASCII rows out in bytes. Its text on a pipe must be the
/// character layout's (kept below as the reference): same widths, every cell whole, trimmed
/// blanks; rows with other text keep the character layout.
final class TextTableTests: XCTestCase {
    private func reference(_ rows: [[String]]) -> String {
        let rows = rows.map { $0.map { DisplayText.escaped($0) } }
        guard let columns = rows.map({ $0.count }).max() else { return "" }
        var widths = Array(repeating: 0, count: columns)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        var output = ""
        for row in rows {
            var line = ""
            for (index, cell) in row.enumerated() {
                line += cell
                if index < row.count - 1 { line += String(repeating: " ", count: widths[index] + 2 - cell.count) }
            }
            while line.last == " " { line.removeLast() }
            output += line + "\n"
        }
        return output
    }

    static let tables: [[[String]]] = [
        [
            ["CASE", "METHOD", "PATH", "DESCRIPTION"], ["zen", "GET", "/zen", "A random quote"],
            ["userProfile", "GET", "/users/{name}", ""],
            ["x", "POST", "/a/very/long/path/that/goes/on/and/on", "trailing   "]
        ],
        [["A", "B"], ["caf\u{E9}", "\u{1F600}\u{1F600}"], ["ok", "done  "], ["tab\there", "new\nline"], ["", ""]],
        [["ONE"], ["only", "ragged", "row"], []],
        [
            ["name", "value"], ["\u{600} ", "x"], ["e\u{301}", "\r\n"],
            ["long description with many words in it", "z"]
        ],
        []
    ]

    func testLayoutIsTheCharacterLayout() {
        for rows in Self.tables {
            XCTAssertEqual(TextTable.render(rows), reference(rows), "rows \(rows)")
        }
    }

    /// A table that fits the terminal is laid out as on a pipe (ASCII cells; wide ones are
    /// measured in columns there).
    func testATableThatFitsIsThePipesLayout() {
        for rows in Self.tables where rows.joined().allSatisfy(TextTable.isPlainASCII) {
            XCTAssertEqual(TextTable.render(rows, width: 200), reference(rows), "rows \(rows)")
        }
    }

    private static let cases = [
        ["CASE", "METHOD", "PATH", "TASK", "VALUES", "DESCRIPTION"],
        ["search", "GET", "/search", "requestParameters", "q: string, page: int = 1", "Finds items by their name"],
        ["item", "GET", "/items/{id}", "requestPlain", "id: int", ""]
    ]
    private static let caseFits: [ColumnFit] = [
        .whole, .whole, .wraps(minimum: 12), ColumnFit.whole.dropped(atRank: 1), .wraps(minimum: 16, at: ", "),
        ColumnFit.wraps(minimum: 16).dropped(atRank: 2)
    ]

    func testTaskGoesFirstThenTheDescriptionWrapsThenGoes() {
        XCTAssertEqual(
            TextTable.render(Self.cases, width: 80, fits: Self.caseFits),
            """
            CASE    METHOD  PATH         VALUES                    DESCRIPTION
            search  GET     /search      q: string, page: int = 1  Finds items by their name
            item    GET     /items/{id}  id: int

            """)
        XCTAssertEqual(
            TextTable.render(Self.cases, width: 72, fits: Self.caseFits),
            """
            CASE    METHOD  PATH         VALUES                    DESCRIPTION
            search  GET     /search      q: string, page: int = 1  Finds items by
                                                                   their name
            item    GET     /items/{id}  id: int

            """)
        // Narrower: the description goes, VALUES wraps between values, whole each, aligned.
        XCTAssertEqual(
            TextTable.render(Self.cases, width: 50, fits: Self.caseFits),
            """
            CASE    METHOD  PATH         VALUES
            search  GET     /search      q: string,
                                         page: int = 1
            item    GET     /items/{id}  id: int

            """)
        // Too narrow for the columns at their minimums: each case is stacked, without the header,
        // its other cells packed on lines while they fit.
        XCTAssertEqual(
            TextTable.render(Self.cases, width: 40, fits: Self.caseFits),
            """
            search
                GET  /search
                q: string, page: int = 1
            item
                GET  /items/{id}  id: int

            """)
    }

    func testWideTextIsMeasuredInColumns() {
        let rows = [["CASE", "VALUES", "DESCRIPTION"], ["日本", "名前: string", "東京の天気を返します。とても長い説明です"]]
        let fits: [ColumnFit] = [.whole, .wraps(minimum: 10, at: ", "), ColumnFit.wraps(minimum: 10).dropped(atRank: 1)]
        let fitted = TextTable.render(rows, width: 40, fits: fits)
        XCTAssertEqual(
            fitted,
            """
            CASE  VALUES        DESCRIPTION
            日本  名前: string  東京の天気を返します
                                。とても長い説明です

            """)
        for line in fitted.split(separator: "\n") {
            XCTAssertLessThanOrEqual(DisplayColumns.width(of: String(line)), 40)
        }
    }

    func testACaseNameWiderThanTheTerminalStacksTheRows() {
        let name = String(repeating: "n", count: 500)
        let rows = [["CASE", "METHOD", "PATH", "VALUES"], [name, "GET", "/x", "a: string"], ["b", "POST", "/y", ""]]
        let fits: [ColumnFit] = [.whole, .whole, .wraps(minimum: 12), .wraps(minimum: 16, at: ", ")]
        XCTAssertEqual(
            TextTable.render(rows, width: 60, fits: fits),
            name + "\n    GET  /x  a: string\nb\n    POST  /y\n", "the name whole, on its own line")
        // Help breaks even a name, so that no line is wider than the terminal.
        let broken = TextTable.render(
            rows.map { ["  " + $0[0]] + $0.dropFirst() }, width: 60, fits: fits, hasHeader: false,
            breaksWholeCells: true)
        for line in broken.split(separator: "\n") { XCTAssertLessThanOrEqual(line.count, 60, String(line)) }
        XCTAssertEqual(
            broken.filter { $0 != " " && $0 != "\n" }, "CASEMETHODPATHVALUES" + name + "GET/xa:stringbPOST/y", broken)
    }

    func testEscapesStayWholeAndTinyWidthsAreTakenAsTwenty() {
        let rows = [
            ["NAME", "DESCRIPTION"], ["x\u{1B}]0;title\u{7}", "clear \u{1B}[2J the \u{202E}screen\u{1B}[0m now"]
        ]
        let fits: [ColumnFit] = [.whole, .wraps(minimum: 8)]
        XCTAssertEqual(
            TextTable.render(rows, width: 40, fits: fits),
            #"""
            NAME           DESCRIPTION
            x\e]0;title\a  clear \e[2J the
                           \u{202e}screen\e[0m now

            """#)
        let twenty = TextTable.render(rows, width: 20, fits: fits)
        XCTAssertEqual(
            twenty,
            #"""
            x\e]0;title\a
                clear \e[2J the
                \u{202e}screen\e
                [0m now

            """#)
        for width in [0, 1, -5] { XCTAssertEqual(TextTable.render(rows, width: width, fits: fits), twenty) }
        XCTAssertFalse(twenty.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" || $0 == "\u{7}" })
    }
}

/// Issue 16: `TableCells` keeps its rows in chunks of 64 KiB, a row whole in one (a larger row in
/// one of its own): rows across chunk ends, and a row larger than a chunk, read back as written.
final class TableCellsTests: XCTestCase {
    func testRowsReadBackAcrossChunks() {
        var cells = TableCells()
        var rows: [[String]] = []
        for index in 0..<3_000 {
            var row = [
                "case\(index)", index % 2 == 0 ? "GET" : "POST",
                "/items/\(index)/" + String(repeating: "x", count: index % 40)
            ]
            if index % 500 == 0 { row.append("caf\u{E9} \u{1F600} ") }
            if index == 1_234 { row[2] = String(repeating: "long", count: 30_000) }
            if index % 7 == 0 { row.removeLast() }
            rows.append(row)
            cells.appendRow(row)
        }
        cells.appendRow([])
        rows.append([])
        XCTAssertEqual(cells.rowCount, rows.count)
        XCTAssertEqual(cells.byteCount, rows.joined().reduce(0) { $0 + $1.utf8.count })
        for (index, row) in rows.enumerated() {
            for column in 0..<5 {
                XCTAssertEqual(
                    cells.text(row: index, column: column), column < row.count ? row[column] : "",
                    "row \(index), column \(column)")
            }
            XCTAssertEqual(cells.isASCII(row: index), row.allSatisfy(TextTable.isPlainASCII), "row \(index)")
        }
        XCTAssertEqual(
            cells.widths, (0..<4).map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max()! })
    }
}
