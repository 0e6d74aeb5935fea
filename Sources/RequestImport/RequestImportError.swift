import TextSafety

/// Where in the imported text something is: a 1-based line and column (a byte column).
package struct TextPlace: Sendable, Equatable, CustomStringConvertible {
    package var line: Int
    package var column: Int

    package init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    package var description: String { "\(line):\(column)" }
}

/// Why an import made no file: the input is not something the importer may read (exit 65),
/// with the place in it; nothing was written.
package struct RequestImportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the problem is, when it has a place in the text.
    package var place: TextPlace?
    /// What is wrong and what to do, in one line (already safe for a terminal).
    package var message: String

    package init(_ message: String, at place: TextPlace? = nil) {
        self.place = place
        self.message = DisplayText.escaped(message)
    }

    package var description: String { place.map { "\($0): \(message)" } ?? message }
}

/// What the importer did not carry over, or changed, for one command: said on stderr.
package struct RequestImportNote: Sendable, Equatable {
    /// The case the note concerns.
    package var caseName: String
    /// Where the option the note is about starts.
    package var place: TextPlace
    /// What happened, in one line.
    package var message: String

    package init(caseName: String, place: TextPlace, message: String) {
        self.caseName = caseName
        self.place = place
        self.message = message
    }
}
