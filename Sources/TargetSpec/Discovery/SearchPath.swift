import TargetModel

/// Where target files are looked for, in priority order:
/// `--targets` > `$MOYA_TARGETS` (else its older name `$MOYA_TARGETS_PATH`) > `./targets` >
/// `$XDG_CONFIG_HOME/moya/targets` (`~/.config/moya/targets`) > `<prefix>/share/moya-cli/targets`.
public struct SearchPath: Sendable, Hashable {
    /// A priority level; lower levels win.
    public enum Level: Int, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
        /// `--targets PATH` (repeatable).
        case explicit
        /// `$MOYA_TARGETS` (else `$MOYA_TARGETS_PATH`), colon-separated.
        case environmentVariable
        /// `./targets`.
        case currentDirectory
        /// `$XDG_CONFIG_HOME/moya/targets` or `~/.config/moya/targets`.
        case userConfiguration
        /// The installed share folder.
        case share

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }

        /// How `list` names the level.
        public var description: String {
            switch self {
            case .explicit: "--targets"
            case .environmentVariable: "MOYA_TARGETS"
            case .currentDirectory: "./targets"
            case .userConfiguration: "user configuration"
            case .share: "share folder"
            }
        }
    }

    /// One place to look: a file or a folder.
    public struct Location: Sendable, Hashable {
        /// Its level.
        public var level: Level
        /// The path used to reach it (relative ones are taken from the current folder).
        public var path: String
        /// The path as diagnostics and `list` show it.
        public var displayPath: String
        /// Whether a missing path is an error (`--targets`) rather than skipped.
        public var mustExist: Bool
        /// How `list` and messages name where it came from: the level's name, or for the
        /// environment level the variable actually read.
        public var source: String

        /// Creates a location.
        public init(
            level: Level, path: String, displayPath: String? = nil, mustExist: Bool = false, source: String? = nil
        ) {
            self.level = level
            self.path = path
            self.displayPath = displayPath ?? path
            self.mustExist = mustExist
            self.source = source ?? level.description
        }

        /// How an "unknown API" error or an empty `list` names it: `./targets`, else the path
        /// with its source, and `missing` when it did not exist.
        package func searchedDescription(exists: Bool) -> String {
            let missing = exists ? "" : "missing"
            if level == .currentDirectory { return "./targets" + (exists ? "" : " (missing)") }
            return displayPath + " (" + [source, missing].filter { !$0.isEmpty }.joined(separator: ", ") + ")"
        }
    }

    /// The environment variables of the environment level, the first one set and not empty read: `MOYA_TARGETS`,
    /// the documented name, wins over `MOYA_TARGETS_PATH`, kept for files and scripts written before.
    package static let environmentVariables = ["MOYA_TARGETS", "MOYA_TARGETS_PATH"]

    /// The places, in priority order.
    public var locations: [Location]

    /// Creates a search path from explicit locations.
    public init(locations: [Location]) {
        self.locations = locations
    }

    /// The standard search path.
    ///
    /// - Parameters:
    ///   - explicitPaths: the `--targets` paths, in the order given.
    ///   - environment: the process environment (`MOYA_TARGETS` or `MOYA_TARGETS_PATH`, `XDG_CONFIG_HOME`, `HOME`).
    ///   - currentDirectory: the current folder (relative paths are taken from it).
    ///   - executablePath: the running binary; its folder's parent is the installation prefix.
    public static func standard(
        explicitPaths: [String], environment: [String: String], currentDirectory: String, executablePath: String?
    ) -> SearchPath {
        func absolute(_ path: String) -> String {
            path.hasPrefix("/") ? path : join(currentDirectory, path)
        }
        var locations = explicitPaths.map {
            Location(level: .explicit, path: absolute($0), displayPath: $0, mustExist: true)
        }
        if let variable = environmentVariables.first(where: { !(environment[$0] ?? "").isEmpty }),
            let list = environment[variable]
        {
            for entry in list.split(separator: ":") where !entry.isEmpty {
                locations.append(
                    Location(
                        level: .environmentVariable, path: absolute(String(entry)), displayPath: String(entry),
                        source: variable))
            }
        }
        locations.append(
            Location(level: .currentDirectory, path: join(currentDirectory, "targets"), displayPath: "targets"))
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            locations.append(Location(level: .userConfiguration, path: join(xdg, "moya/targets")))
        } else if let home = environment["HOME"], !home.isEmpty {
            locations.append(Location(level: .userConfiguration, path: join(home, ".config/moya/targets")))
        }
        if let executablePath {
            let binaryFolder = APISpec.folder(of: absolute(executablePath))
            let prefix = APISpec.folder(of: binaryFolder)
            locations.append(Location(level: .share, path: join(prefix, "share/moya-cli/targets")))
        }
        return SearchPath(locations: locations)
    }

    static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}
