import ArgumentParser

/// The bash and fish completion scripts: swift-argument-parser's, patched where they fall short.
///
/// - fish: every `complete` rule of the generated script has a condition that re-parses the whole
///   command line with `argparse`; with about 170 rules, one TAB took 0.4–1.5 s. Here the parse
///   runs once and is kept in global variables keyed by the tokens before the cursor, and the
///   conditions only compare against it. What each condition answers is unchanged.
/// - bash: bash breaks words at `:` (`COMP_WORDBREAKS`), so after `a:` the script saw the words
///   `a` and `:` and offered nothing. Here such words are joined back as typed before anything
///   looks at them, and the candidates lose the part before the colon, which bash keeps.
///
/// When ArgumentParser's text is not what a patch expects (a new ArgumentParser), its own script
/// is printed: weaker, never wrong. `CompletionTests` and `ShellCompletionTests` check that both
/// patches apply.
enum CompletionScriptPatches {
    /// The shell whose script `arguments` ask for, if it is one patched here.
    static func requestedShell(in arguments: [String]) -> CompletionShell? {
        let shell: String
        switch arguments.count {
        case 1 where arguments[0].hasPrefix("--generate-completion-script="):
            shell = String(arguments[0].dropFirst("--generate-completion-script=".count))
        case 2 where arguments[0] == "--generate-completion-script":
            shell = arguments[1]
        default:
            return nil
        }
        return [CompletionShell.bash, .fish, .zsh].first { $0.rawValue == shell }
    }

    /// The script for `shell`, patched if the patch applies.
    static func script(for shell: CompletionShell) -> String {
        let original = MoyaCommand.completionScript(for: shell)
        let replacements = shell == .fish ? fish + fishHelp : shell == .bash ? bash + bashHelp : zshHelp
        return patched(original, with: replacements) ?? original
    }

    /// `script` with every replacement made, or `nil` if a part to replace is missing.
    static func patched(_ script: String, with replacements: [(String, String)]) -> String? {
        var text = script
        for (original, replacement) in replacements {
            guard let range = text.firstRange(of: original) else { return nil }
            text.replaceSubrange(range, with: replacement)
        }
        return text
    }

    private static let fish: [(String, String)] = [
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
        )
    ]

    /// The words ArgumentParser's bash script offers after `moya-cli`.
    private static var topLevelWords: String { MoyaCommand.commandNames.joined(separator: " ") }

    private static var bash: [(String, String)] {
        [
            (
                """
                    local -r cur="${2}"
                    local -r prev="${3}"
                """,
                """
                    # bash split words at ':' (COMP_WORDBREAKS): join them back as typed, for every
                    # function below (they read these through bash's dynamic scope).
                    local -a COMP_WORDS=("${COMP_WORDS[@]}")
                    local -i COMP_CWORD="${COMP_CWORD}"
                    local is_joined_at_colon=false
                    __moya-cli_join_words_split_at_colons
                    if "${is_joined_at_colon}"; then
                        local -r cur="${COMP_WORDS[COMP_CWORD]:0:$(__moya-cli_cursor_index_in_current_word)}"
                        local -r prev="${COMP_WORDS[COMP_CWORD - 1]}"
                    else
                        local -r cur="${2}"
                        local -r prev="${3}"
                    fi
                """
            ),
            (
                """
                        COMPREPLY+=($(compgen -W '\(topLevelWords)' -- "${cur}"))
                        ;;
                    esac
                }
                """,
                """
                        COMPREPLY+=($(compgen -W '\(topLevelWords)' -- "${cur}"))
                        ;;
                    esac

                    # bash replaces only the part of the word after its last ':'.
                    if "${is_joined_at_colon}" && [[ "${cur}" == *:* ]]; then
                        local -r before_colon="${cur%"${cur##*:}"}"
                        local -i index
                        for index in "${!COMPREPLY[@]}"; do
                            COMPREPLY[index]="${COMPREPLY[index]#"${before_colon}"}"
                        done
                    fi
                }

                # Joins COMP_WORDS that bash split at ':' back into the words typed (no blank between
                # them in COMP_LINE) and moves COMP_CWORD with them; sets is_joined_at_colon if the
                # current word was one of them.
                __moya-cli_join_words_split_at_colons() {
                    local -a joined=()
                    local -i index joined_index=-1 cword="${COMP_CWORD}"
                    local rest="${COMP_LINE}" word trimmed glue_next=false
                    for index in "${!COMP_WORDS[@]}"; do
                        word="${COMP_WORDS[index]}"
                        trimmed="${rest##+([[:blank:]])}"
                        if ((joined_index >= 1)) && [[ "${trimmed}" == "${rest}" ]] && { [[ "${word}" == +(:) ]] || "${glue_next}"; }; then
                            joined[joined_index]+="${word}"
                            ((index == COMP_CWORD)) && is_joined_at_colon=true
                        else
                            joined_index+=1
                            joined[joined_index]="${word}"
                        fi
                        glue_next=false
                        [[ "${word}" == +(:) ]] && glue_next=true
                        rest="${trimmed#"${word}"}"
                        ((index == COMP_CWORD)) && cword="${joined_index}"
                    done
                    # The word after a trailing ':' is the empty one the cursor is on.
                    if ((COMP_CWORD >= ${#COMP_WORDS[@]})); then
                        cword=$((joined_index + 1))
                    fi
                    COMP_WORDS=("${joined[@]}")
                    COMP_CWORD="${cword}"
                }
                """
            )
        ]
    }

    /// The subcommands `moya-cli help` offers (ArgumentParser's `help` completes nothing).
    private static var helpTopics: String {
        MoyaCommand.commandNames.filter { $0 != "help" }.joined(separator: " ")
    }

    private static var bashHelp: [(String, String)] {
        [
            (
                """
                _moya-cli_help() {
                    repeating_flags=()
                    non_repeating_flags=(--version)
                    repeating_options=()
                    non_repeating_options=()
                    __moya-cli_offer_flags_options -1
                }
                """,
                """
                _moya-cli_help() {
                    repeating_flags=()
                    non_repeating_flags=(--version)
                    repeating_options=()
                    non_repeating_options=()
                    __moya-cli_offer_flags_options -1
                    COMPREPLY+=($(compgen -W '\(helpTopics)' -- "${cur}"))
                }
                """
            )
        ]
    }

    private static var zshHelp: [(String, String)] {
        [("'*:subcommands:'", "'*:subcommands:(\(helpTopics))'")]
    }

    private static var fishHelp: [(String, String)] {
        let line = """
            complete -c 'moya-cli' -n '__moya-cli_should_offer_completions_for_flags_or_options "moya-cli help" version' -l 'version' -d 'Show the version.'
            """
        return [
            (
                line,
                line + "\n" + """
                    complete -c 'moya-cli' -n '__moya-cli_should_offer_completions_for_positional "moya-cli help" -ge 0' -fa '\(helpTopics)'
                    """
            )
        ]
    }
}
