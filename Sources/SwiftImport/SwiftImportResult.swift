/// What `moya-cli import swift` asks for: the API's name, and the folder of bundle stubs.
package struct SwiftImportOptions: Sendable {
    /// The API's name (`--api`); with several `TargetType` types, the one whose name it is.
    package var apiName: String?
    /// The folder `--samples` names: a stub `stubbedResponse("Me")` or
    /// `Bundle.main.path(forResource: "Me", ofType: "json")` loads becomes a sample file when it holds `Me.json`.
    package var samplesFolder: String?

    package init(apiName: String? = nil, samplesFolder: String? = nil) {
        self.apiName = apiName
        self.samplesFolder = samplesFolder
    }
}

/// Something the import left out or chose, at its place in the sources (`File.swift:12:5`).
package struct SwiftImportNote: Sendable, Equatable {
    package var place: String
    /// The case it is about; `nil` for the API.
    package var caseName: String?
    package var message: String

    package init(place: String, caseName: String?, message: String) {
        self.place = place
        self.caseName = caseName
        self.message = message
    }
}

/// One `TargetType` type as a target file.
package struct SwiftImportedAPI: Sendable {
    package var name: String
    /// The Swift type it was read from.
    package var typeName: String
    /// The target file's YAML.
    package var text: String
    package var caseCount: Int
    /// Sample files to copy beside the target file: where (relative to its folder) and from where.
    package var sampleFiles: [SampleFile]
    /// The variables its auth reads.
    package var variables: [String]
    /// Files the target file names, relative to its folder (`generate swift`'s
    /// `Configuration.filesFolder` files), which must be there for it to load.
    package var folderFiles: [String]

    package struct SampleFile: Sendable, Equatable {
        package var path: String
        package var source: String
    }
}

/// Every `TargetType` found, and the notes.
package struct SwiftImportResult: Sendable {
    package var apis: [SwiftImportedAPI]
    package var notes: [SwiftImportNote]
}

/// Why nothing was imported: the sources do not parse, or hold no `TargetType` (exit 65).
package struct SwiftImportError: Error, Sendable, Equatable {
    package var place: String?
    package var message: String

    package init(place: String?, _ message: String) {
        self.place = place
        self.message = message
    }
}
