import ArgumentParser

/// The fish completion script: swift-argument-parser's, with its command-line parse done once per
/// TAB instead of once per rule.
///
/// Every `complete` rule of the generated script has a condition that re-parses the whole command
/// line with `argparse`; with about 170 rules, one TAB took 0.4–1.5 s. Here the parse runs once
/// and is kept in global variables keyed by the tokens before the cursor, and the conditions
/// only compare against it. What each condition answers is unchanged.
enum FishCompletionScript {
    /// The script, or ArgumentParser's own when its text is not what this patch expects (a new
    /// ArgumentParser): slower, never wrong. `ShellCompletionTests` checks that the patch applies.
    static var text: String {
        patched(MoyaCommand.completionScript(for: .fish)) ?? MoyaCommand.completionScript(for: .fish)
    }

    /// Whether `arguments` ask for the fish script.
    static func isRequested(by arguments: [String]) -> Bool {
        arguments == ["--generate-completion-script", "fish"] || arguments == ["--generate-completion-script=fish"]
    }

    /// `script` with the cached parse, or `nil` if a part to replace is missing.
    static func patched(_ script: String) -> String? {
        var text = script
        for (original, replacement) in replacements {
            guard let range = text.firstRange(of: original) else { return nil }
            text.replaceSubrange(range, with: replacement)
        }
        return text
    }

    private static let replacements: [(String, String)] = [
        (
            // The conditions: each parsed the line itself.
            """
            function __moya-cli_should_offer_completions_for_flags_or_options -a expected_commands
                set -l non_repeating_flags_or_options $argv[2..]
                set -l non_repeating_flags_or_options_absent 0
                set -l positional_index 0
                set -l commands
                __moya-cli_parse_tokens
                test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
            end

            function __moya-cli_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
                set -l non_repeating_flags_or_options
                set -l non_repeating_flags_or_options_absent 0
                set -l positional_index 0
                set -l commands
                __moya-cli_parse_tokens
                test "$commands" = "$expected_commands" -a \\( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \\)
            end
            """,
            """
            # A script sourced anew (an upgrade) must not answer from the previous one's parse.
            set -e __moya_cli_parsed_key

            function __moya-cli_should_offer_completions_for_flags_or_options -a expected_commands
                __moya-cli_parse_tokens_once
                test "$__moya_cli_parsed_commands" = "$expected_commands"; or return 1
                # An option that may be given once is not offered again.
                for non_repeating_flag_or_option in $argv[2..]
                    contains -- (string replace -a - _ -- $non_repeating_flag_or_option) $__moya_cli_parsed_flags; and return 1
                end
                return 0
            end

            function __moya-cli_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
                __moya-cli_parse_tokens_once
                test "$__moya_cli_parsed_commands" = "$expected_commands" -a \\( "$__moya_cli_parsed_positional_index" "$positional_index_comparison" "$expected_positional_index" \\)
            end

            # Parses the tokens before the cursor once per TAB (every condition asks about the same
            # line): the subcommands, the positional index and every flag given.
            function __moya-cli_parse_tokens_once
                # Escaped, so a token holding a newline cannot pass for two tokens.
                set -l key (string escape -- (__moya-cli_tokens -pc))
                set -q __moya_cli_parsed_key; and test "$__moya_cli_parsed_key" = "$key"; and return
                set -l positional_index 0
                set -l commands
                set -l flags_given
                __moya-cli_parse_tokens
                set -g __moya_cli_parsed_key $key
                set -g __moya_cli_parsed_commands "$commands"
                set -g __moya_cli_parsed_positional_index $positional_index
                set -g __moya_cli_parsed_flags $flags_given
            end
            """
        ),
        (
            // Inside the parse: it checked one condition's flags; now it records them all.
            """
                    for non_repeating_flag_or_option in $non_repeating_flags_or_options
                        if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                            set non_repeating_flags_or_options_absent 1
                            break
                        end
                    end
            """,
            """
                    set -a flags_given (string replace -r '^_flag_' '' -- (set -ln | string match -- '_flag_*'))
            """
        ),
    ]
}
