import TargetModel

/// Every name the generated file declares for an API, chosen once, before anything is written,
/// so that each is unique where Swift needs it to be and the same on every run.
struct GeneratedNames: Sendable {
    /// Names a declaration of the generated file may not take: those its code refers to.
    static let reservedTypeNames: Set<String> = [
        "Data", "URL", "String", "Int", "Double", "Bool", "Task", "Method", "TargetType", "ValidationType",
        "AuthorizationType", "AccessTokenAuthorizable", "MultipartFormBodyPart", "MultipartFormData", "URLEncoding",
        "JSONEncoding", "PropertyListEncoding", "ParameterEncoding", "PercentEncoding", "EndpointSampleResponse",
        "DownloadDestination", "DownloadOptions", "Configuration", "Samples", "GeneratedJSON", "GeneratedURL",
        "GeneratedPath", "GeneratedMIMEType", "GeneratedConfigurationStore", "GeneratedPlistEncoding", "Moya",
        "MoyaKit", "Alamofire", "Foundation", "Swift", "Optional", "Array", "Dictionary", "Set", "Error", "NSError",
        "NSLock", "Sendable", "Any", "Never", "Void", "Character", "Substring", "HTTPResponseHead", "TransportError",
        "PropertyListSerialization", "NSURLErrorDomain"
    ]
    /// Static members of the enum a case may not be named after (an instance member such as
    /// `path` or `headers` may share a case's name).
    static let reservedMemberNames: Set<String> = ["configuration", "configurationStore", "examples"]

    var typeName: String
    /// Per case, in file order: the case's identifier and its values.
    var cases: [(spec: CaseSpec, identifier: String, values: [GeneratedValue])]
    var enumerations: [GeneratedEnumeration]
    /// `${VAR}` names to `Configuration` members, sorted by variable name.
    var configurationMembers: [(variable: String, member: String)]

    init(api: APISpec, typeName requested: String?) {
        var typeName = requested ?? SwiftIdentifier.upperCamel(api.name)
        // `Self`, `Type`, `Any` or a name the file's code uses would not be the enum's name.
        if Self.reservedTypeNames.contains(typeName) || SwiftIdentifier.keywords.contains(typeName)
            || SwiftIdentifier.unusable.contains(typeName)
        {
            typeName += "API"
        }
        self.typeName = typeName

        var takenTypes = Self.reservedTypeNames
        takenTypes.insert(typeName)
        var takenCases = Self.reservedMemberNames
        var cases: [(spec: CaseSpec, identifier: String, values: [GeneratedValue])] = []
        var enumerations: [GeneratedEnumeration] = []
        for spec in api.cases {
            let identifier = SwiftIdentifier.unique(SwiftIdentifier.lowerCamel(spec.name), in: &takenCases)
            var takenLabels: Set<String> = []
            var values: [GeneratedValue] = []
            for value in spec.values {
                let label = SwiftIdentifier.unique(SwiftIdentifier.lowerCamel(value.name), in: &takenLabels)
                let kind = Self.kind(
                    of: value.type, value: value, caseName: spec.name, takenTypes: &takenTypes,
                    enumerations: &enumerations)
                values.append(GeneratedValue(spec: value, identifier: label, kind: kind))
            }
            cases.append((spec, identifier, values))
        }
        self.cases = cases
        self.enumerations = enumerations

        var takenMembers: Set<String> = ["filesFolder", "downloadsFolder", "accessToken"]
        configurationMembers = api.environmentVariables.sorted().map { variable in
            (variable, SwiftIdentifier.unique(SwiftIdentifier.lowerCamel(variable.lowercased()), in: &takenMembers))
        }
    }

    /// The member of `Configuration` holding `variable`.
    func configurationMember(for variable: String) -> String? {
        configurationMembers.first { $0.variable == variable }?.member
    }

    private static func kind(
        of type: ValueType, value: ValueSpec, caseName: String, takenTypes: inout Set<String>,
        enumerations: inout [GeneratedEnumeration]
    ) -> GeneratedValue.Kind {
        switch type {
        case .string, .int, .double:
            guard let allowed = value.allowedCases else {
                return type == .string ? .string : type == .int ? .int : .double
            }
            let raw: GeneratedValue.RawType = type == .int ? .int : .double
            return enumeration(
                allowed, raw: raw, value: value, caseName: caseName, takenTypes: &takenTypes,
                enumerations: &enumerations)
        case .bool: return .bool
        case .file: return .file
        case .enumeration(let cases):
            return enumeration(
                cases, raw: .string, value: value, caseName: caseName, takenTypes: &takenTypes,
                enumerations: &enumerations)
        case .list(let element):
            return .list(
                kind(
                    of: element, value: value, caseName: caseName, takenTypes: &takenTypes,
                    enumerations: &enumerations))
        }
    }

    private static func enumeration(
        _ rawTexts: [String], raw: GeneratedValue.RawType, value: ValueSpec, caseName: String,
        takenTypes: inout Set<String>, enumerations: inout [GeneratedEnumeration]
    ) -> GeneratedValue.Kind {
        let typeName = SwiftIdentifier.unique(
            SwiftIdentifier.upperCamel(caseName) + SwiftIdentifier.upperCamel(value.name), in: &takenTypes)
        var takenCases: Set<String> = []
        var cases: [(identifier: String, rawText: String)] = []
        for text in rawTexts {
            let candidate = raw == .string ? SwiftIdentifier.lowerCamel(text) : numberIdentifier(text)
            cases.append((SwiftIdentifier.unique(candidate, in: &takenCases), text))
        }
        enumerations.append(GeneratedEnumeration(typeName: typeName, raw: raw, cases: cases, value: value))
        return .enumeration(typeName: typeName, raw: raw)
    }

    /// `_2`, `_1_5`, `minus3`: a case name for a number.
    private static func numberIdentifier(_ text: String) -> String {
        var name = text.hasPrefix("-") ? "minus" : "_"
        for character in text.drop(while: { $0 == "-" }) {
            name += character.isNumber || character.isLetter ? String(character) : "_"
        }
        return name
    }
}
