import XCTest
@testable import moya_cli
import TargetSpec
import TextSafety
import TargetModel

/// Issue 16: `TextTable.render` lays ASCII rows out in bytes. Its text must be the character
/// layout's (kept below as the reference): same widths, cuts with `…`, trimmed blanks; rows with
/// other text keep the character layout.
final class TextTableTests: XCTestCase {
    private func reference(_ rows: [[String]], width: Int?) -> String {
        let rows = rows.map { $0.map { DisplayText.escaped($0) } }
        guard let columns = rows.map({ $0.count }).max() else { return "" }
        var widths = Array(repeating: 0, count: columns)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        if let width { widths = TextTable.fitted(widths, into: width) }
        var output = ""
        for row in rows {
            var line = ""
            for (index, cell) in row.enumerated() {
                let shown = cell.count > widths[index] ? String(cell.prefix(max(0, widths[index] - 1))) + "…" : cell
                line += shown
                if index < row.count - 1 { line += String(repeating: " ", count: widths[index] + 2 - shown.count) }
            }
            while line.last == " " { line.removeLast() }
            output += line + "\n"
        }
        return output
    }

    func testLayoutIsTheCharacterLayout() {
        let tables: [[[String]]] = [
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
        for rows in tables {
            for width in [nil, 80, 30, 12, 1] as [Int?] {
                XCTAssertEqual(
                    TextTable.render(rows, width: width), reference(rows, width: width),
                    "rows \(rows), width \(String(describing: width))")
            }
        }
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
