/// What a `call` or `curl` command line asks of a case: the command, `API CASE [VALUES...]` and
/// `--value`s (or `-h`), where target files are found, the ad-hoc changes and how the target is
/// built.
struct CaseRequest {
    var command: CaseCommand
    /// `-h`/`--help`: help for the command, the API or the case instead.
    var help: Bool
    /// `API CASE [VALUES...] [--name value...]`.
    var words: [String]
    /// `--value NAME=VALUE`s.
    var values: [String]
    var targets: TargetOptions
    /// `--query`, `--json`, `--data`.
    var overrides: OverrideOptions
    /// `-u`, `--bearer`: read (a password asked for) once the case is resolved.
    var credentials = CredentialOptions()
    /// `-X` and the other curl habits (`-X` is checked against the case's method).
    var curlHabits = CurlHabitOptions()
    var settings: TargetSettings
    /// Whether `--json`/`--data` are checked against the case's task before its target is built
    /// (`--all`, `--capture`) or after (a plain call, `curl`): it decides which of two usage
    /// errors is reported, and whether a token command runs before that.
    var checksOverridesBeforeBuilding = false

    /// The loader of the target files, in the request's environment.
    var loader: CatalogLoader {
        CatalogLoader(options: targets, environment: settings.environment)
    }
}
