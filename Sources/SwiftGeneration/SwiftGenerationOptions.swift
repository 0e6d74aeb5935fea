/// How `moya-cli generate swift` writes an API's enum.
package struct SwiftGenerationOptions: Sendable, Hashable {
    /// The library the generated file imports.
    package enum Module: String, Sendable, Hashable, CaseIterable {
        /// This package's MoyaKit.
        case moyaKit = "MoyaKit"
        /// Moya 15 (over Alamofire): only API Moya has (`MoyaCompatibility`).
        case moya = "Moya"
    }

    /// The access level of the generated declarations.
    package enum Access: String, Sendable, Hashable, CaseIterable {
        /// `public`: for a library target.
        case `public`
        /// `internal` (written as no modifier): for an app target.
        case `internal`
    }

    /// The enum's name; `nil`: the API name in UpperCamelCase.
    package var typeName: String?
    package var module: Module
    package var access: Access
    /// The moya-cli version the header names.
    package var generatorVersion: String
    /// Whether `examples` is written too (each example with its `moya-cli call` words).
    package var writesExamples = false

    package init(typeName: String? = nil, module: Module = .moya, access: Access = .public, generatorVersion: String) {
        self.typeName = typeName
        self.module = module
        self.access = access
        self.generatorVersion = generatorVersion
    }

    /// The modifier written before a declaration: `public ` or nothing.
    var modifier: String { access == .public ? "public " : "" }
}
