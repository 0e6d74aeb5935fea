/// A combination of options that `validate()` of a plain option group refuses.
///
/// The plain groups do not depend on ArgumentParser (see `RequestOptions`); their `Arguments`
/// counterparts hand this on as ArgumentParser's `ValidationError` with the same text.
struct OptionsError: Error, Equatable {
    /// What is wrong, as the user reads it after `moya-cli: error: `.
    var message: String

    init(_ message: String) {
        self.message = message
    }
}
