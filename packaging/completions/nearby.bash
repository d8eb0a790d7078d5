#!/bin/bash

__nearby_cursor_index_in_current_word() {
    local remaining="${COMP_LINE}"

    local word
    for word in "${COMP_WORDS[@]::COMP_CWORD}"; do
        remaining="${remaining##*([[:space:]])"${word}"*([[:space:]])}"
    done

    local -ir index="$((COMP_POINT - ${#COMP_LINE} + ${#remaining}))"
    if [[ "${index}" -le 0 ]]; then
        printf 0
    else
        printf %s "${index}"
    fi
}

# positional arguments:
#
# - 1: the current (sub)command's count of positional arguments
#
# required variables:
#
# - repeating_flags: the repeating flags that the current (sub)command can accept
# - non_repeating_flags: the non-repeating flags that the current (sub)command can accept
# - repeating_options: the repeating options that the current (sub)command can accept
# - non_repeating_options: the non-repeating options that the current (sub)command can accept
# - positional_number: value ignored
# - unparsed_words: unparsed words from the current command line
#
# modified variables:
#
# - non_repeating_flags: remove flags for this (sub)command that are already on the command line
# - non_repeating_options: remove options for this (sub)command that are already on the command line
# - positional_number: set to the current positional number
# - unparsed_words: remove all flags, options, and option values for this (sub)command
__nearby_offer_flags_options() {
    local -ir positional_count="${1}"
    positional_number=0

    local was_flag_option_terminator_seen=false
    local is_parsing_option_value=false

    local -ar unparsed_word_indices=("${!unparsed_words[@]}")
    local -i word_index
    for word_index in "${unparsed_word_indices[@]}"; do
        if "${is_parsing_option_value}"; then
            # This word is an option value:
            # Reset marker for next word iff not currently the last word
            [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]] && is_parsing_option_value=false
            unset "unparsed_words[${word_index}]"
            # Do not process this word as a flag or an option
            continue
        fi

        local word="${unparsed_words["${word_index}"]}"
        if ! "${was_flag_option_terminator_seen}"; then
            case "${word}" in
            --)
                unset "unparsed_words[${word_index}]"
                # by itself -- is a flag/option terminator, but if it is the last word, it is the start of a completion
                if [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]]; then
                    was_flag_option_terminator_seen=true
                fi
                continue
                ;;
            -*)
                # ${word} is a flag or an option
                # If ${word} is an option, mark that the next word to be parsed is an option value
                local option
                for option in "${repeating_options[@]}" "${non_repeating_options[@]}"; do
                    [[ "${word}" = "${option}" ]] && is_parsing_option_value=true && break
                done

                # Remove ${word} from ${non_repeating_flags} or ${non_repeating_options} so it isn't offered again
                local not_found=true
                local -i index
                for index in "${!non_repeating_flags[@]}"; do
                    if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                        unset "non_repeating_flags[${index}]"
                        non_repeating_flags=("${non_repeating_flags[@]}")
                        not_found=false
                        break
                    fi
                done
                if "${not_found}"; then
                    for index in "${!non_repeating_flags[@]}"; do
                        if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                            unset "non_repeating_flags[${index}]"
                            non_repeating_flags=("${non_repeating_flags[@]}")
                            break
                        fi
                    done
                fi
                unset "unparsed_words[${word_index}]"
                continue
                ;;
            esac
        fi

        # ${word} is neither a flag, nor an option, nor an option value
        if [[ "${positional_number}" -lt "${positional_count}" || "${positional_count}" -lt 0 ]]; then
            # ${word} is a positional
            ((positional_number++))
            unset "unparsed_words[${word_index}]"
        else
            if [[ -z "${word}" ]]; then
                # Could be completing a flag, option, or subcommand
                positional_number=-1
            else
                # ${word} is a subcommand or invalid, so stop processing this (sub)command
                positional_number=-2
            fi
            break
        fi
    done

    unparsed_words=("${unparsed_words[@]}")

    if\
        ! "${was_flag_option_terminator_seen}"\
        && ! "${is_parsing_option_value}"\
        && [[ ("${cur}" = -* && "${positional_number}" -ge 0) || "${positional_number}" -eq -1 ]]
    then
        COMPREPLY+=($(compgen -W "${repeating_flags[*]} ${non_repeating_flags[*]} ${repeating_options[*]} ${non_repeating_options[*]}" -- "${cur}"))
    fi
}

__nearby_add_completions() {
    local completion
    while IFS='' read -r completion; do
        COMPREPLY+=("${completion}")
    done < <(IFS=$'\n' compgen "${@}" -- "${cur}")
}

__nearby_custom_complete() {
    if [[ -n "${cur}" || -z ${COMP_WORDS[${COMP_CWORD}]} || "${COMP_LINE:${COMP_POINT}:1}" != ' ' ]]; then
        local -ar words=("${COMP_WORDS[@]}")
    else
        local -ar words=("${COMP_WORDS[@]::${COMP_CWORD}}" '' "${COMP_WORDS[@]:${COMP_CWORD}}")
    fi

    "${COMP_WORDS[0]}" "${@}" "${words[@]}"
}

_nearby() {
    local state
    state="$(shopt -p;shopt -po)"
    trap "${state//$'\n'/;}" RETURN
    shopt -s extglob
    set +o history +o posix

    local -xr SAP_SHELL=bash
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(IFS='.';printf %s "${BASH_VERSINFO[*]}")"
    local -r SAP_SHELL_VERSION

    local -r cur="${2}"
    local -r prev="${3}"

    local -i positional_number
    local -a unparsed_words=("${COMP_WORDS[@]:1:${COMP_CWORD}}")

    local -a repeating_flags=()
    local -a non_repeating_flags=(--version -h --help)
    local -a repeating_options=()
    local -a non_repeating_options=()
    __nearby_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    range|accessory|demo|scan|setup|accessories|replay|bench|uwb|uci|sim|watch|house|config|doctor|help)
        # Offer subcommand argument completions
        "_nearby_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'range accessory demo scan setup accessories replay bench uwb uci sim watch house config doctor help' -- "${cur}"))
        ;;
    esac
}

_nearby_range() {
    repeating_flags=()
    non_repeating_flags=(--all --hci-legacy --allow-debug-keys --on-lost --on-found --json --verbose --version -h --help)
    repeating_options=(--on-enter --on-exit)
    non_repeating_options=(--hci --own-address --uwb --record --scan-seconds --store --config --filter --zones --hysteresis --dwell --lost-after --hook-timeout --hook-cooldown --log-level --web --web-token --mqtt --mqtt-host --dialect --sts-order --uci-log --uci-log-max-mb --hci-log --hci-log-max-mb)
    __nearby_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--hci')
        return
        ;;
    '--own-address')
        __nearby_add_completions -W 'random'$'\n''public'
        return
        ;;
    '--uwb')
        return
        ;;
    '--record')
        return
        ;;
    '--scan-seconds')
        return
        ;;
    '--store')
        return
        ;;
    '--config')
        return
        ;;
    '--filter')
        return
        ;;
    '--zones')
        return
        ;;
    '--hysteresis')
        return
        ;;
    '--dwell')
        return
        ;;
    '--lost-after')
        return
        ;;
    '--on-enter')
        return
        ;;
    '--on-exit')
        return
        ;;
    '--hook-timeout')
        return
        ;;
    '--hook-cooldown')
        return
        ;;
    '--log-level')
        __nearby_add_completions -W 'trace'$'\n''debug'$'\n''info'$'\n''notice'$'\n''warning'$'\n''error'$'\n''critical'
        return
        ;;
    '--web')
        return
        ;;
    '--web-token')
        return
        ;;
    '--mqtt')
        return
        ;;
    '--mqtt-host')
        return
        ;;
    '--dialect')
        return
        ;;
    '--sts-order')
        return
        ;;
    '--uci-log')
        return
        ;;
    '--uci-log-max-mb')
        return
        ;;
    '--hci-log')
        return
        ;;
    '--hci-log-max-mb')
        return
        ;;
    esac
}

_nearby_accessory() {
    repeating_flags=()
    non_repeating_flags=(--hci-legacy --on-lost --on-found --json --verbose --version -h --help)
    repeating_options=(--on-enter --on-exit)
    non_repeating_options=(--hci --uwb --name --service --config-version --role --mac --max-phones --advertising-interval --record --store --uci-log --uci-log-max-mb --hci-log --hci-log-max-mb --config --filter --zones --hysteresis --dwell --lost-after --hook-timeout --hook-cooldown --log-level --web --web-token --mqtt --mqtt-host --dialect --sts-order)
    __nearby_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--hci')
        return
        ;;
    '--uwb')
        return
        ;;
    '--name')
        return
        ;;
    '--service')
        return
        ;;
    '--config-version')
        return
        ;;
    '--role')
        return
        ;;
    '--mac')
        return
        ;;
    '--max-phones')
        return
        ;;
    '--advertising-interval')
        return
        ;;
    '--record')
        return
        ;;
    '--store')
        return
        ;;
    '--uci-log')
        return
        ;;
    '--uci-log-max-mb')
        return
        ;;
    '--hci-log')
        return
        ;;
    '--hci-log-max-mb')
        return
        ;;
    '--config')
        return
        ;;
    '--filter')
        return
        ;;
    '--zones')
        return
        ;;
    '--hysteresis')
        return
        ;;
    '--dwell')
        return
        ;;
    '--lost-after')
        return
        ;;
    '--on-enter')
        return
        ;;
    '--on-exit')
        return
        ;;
    '--hook-timeout')
        return
        ;;
    '--hook-cooldown')
        return
        ;;
    '--log-level')
        __nearby_add_completions -W 'trace'$'\n''debug'$'\n''info'$'\n''notice'$'\n''warning'$'\n''error'$'\n''critical'
        return
        ;;
    '--web')
        return
        ;;
    '--web-token')
        return
        ;;
    '--mqtt')
        return
        ;;
    '--mqtt-host')
        return
        ;;
    '--dialect')
        return
        ;;
    '--sts-order')
        return
        ;;
    esac
}

_nearby_demo() {
    repeating_flags=()
    non_repeating_flags=(--hopping --kit-stats --on-lost --on-found --json --verbose --version -h --help)
    repeating_options=(--on-enter --on-exit)
    non_repeating_options=(--scenario --accessories --phones --role --speed --duration --seed --interval-ms --serve-kit --kit --record --house --truth --walk --config --filter --zones --hysteresis --dwell --lost-after --hook-timeout --hook-cooldown --log-level --web --web-token --mqtt --mqtt-host --dialect --sts-order --uci-log --uci-log-max-mb)
    __nearby_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--scenario')
        return
        ;;
    '--accessories')
        return
        ;;
    '--phones')
        return
        ;;
    '--role')
        return
        ;;
    '--speed')
        return
        ;;
    '--duration')
        return
        ;;
    '--seed')
        return
        ;;
    '--interval-ms')
        return
        ;;
    '--serve-kit')
        return
        ;;
    '--kit')
        return
        ;;
    '--record')
        return
        ;;
    '--house')
        return
        ;;
    '--truth')
        return
        ;;
    '--walk')
        return
        ;;
    '--config')
        return
        ;;
    '--filter')
        return
        ;;
    '--zones')
        return
        ;;
    '--hysteresis')
        return
        ;;
    '--dwell')
        return
        ;;
    '--lost-after')
        return
        ;;
    '--on-enter')
        return
        ;;
    '--on-exit')
        return
        ;;
    '--hook-timeout')
        return
        ;;
    '--hook-cooldown')
        return
        ;;
    '--log-level')
        __nearby_add_completions -W 'trace'$'\n''debug'$'\n''info'$'\n''notice'$'\n''warning'$'\n''error'$'\n''critical'
        return
        ;;
    '--web')
        return
        ;;
    '--web-token')
        return
        ;;
    '--mqtt')
        return
        ;;
    '--mqtt-host')
        return
        ;;
    '--dialect')
        return
        ;;
    '--sts-order')
        return
        ;;
    '--uci-log')
        return
        ;;
    '--uci-log-max-mb')
        return
        ;;
    esac
}

_nearby_scan() {
    repeating_flags=()
    non_repeating_flags=(--ignore-case --json --verbose --hci-legacy --version -h --help)
    repeating_options=()
    non_repeating_options=(--service --company --manufacturer-data --service-data --range --name --name-contains --duration --hci --own-address --hci-log --hci-log-max-mb --log-level)
    __nearby_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--service')
        return
        ;;
    '--company')
        return
        ;;
    '--manufacturer-data')
        return
        ;;
    '--service-data')
        return
        ;;
    '--range')
        __nearby_add_completions -W 'default'$'\n''immediate'
        return
        ;;
    '--name'|'--name-contains')
        return
        ;;
    '--duration')
        return
        ;;
    '--hci')
        return
        ;;
    '--own-address')
        __nearby_add_completions -W 'random'$'\n''public'
        return
        ;;
    '--hci-log')
        return
        ;;
    '--hci-log-max-mb')
        return
        ;;
    '--log-level')
        __nearby_add_completions -W 'trace'$'\n''debug'$'\n''info'$'\n''notice'$'\n''warning'$'\n''error'$'\n''critical'
        return
        ;;
    esac
}

_nearby_setup() {
    repeating_flags=()
    non_repeating_flags=(--ignore-case --json --pair --confirm --allow-debug-keys --verbose --hci-legacy --version -h --help)
    repeating_options=()
    non_repeating_options=(--name --service --company --manufacturer-data --service-data --range --name-contains --pick --timeout --connect-timeout --passkey --repair --store --hci --own-address --hci-log --hci-log-max-mb --log-level)
    __nearby_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--name')
        return
        ;;
    '--service')
        return
        ;;
    '--company')
        return
        ;;
    '--manufacturer-data')
        return
        ;;
    '--service-data')
        return
        ;;
    '--range')
        __nearby_add_completions -W 'default'$'\n''immediate'
        return
        ;;
    '--name-contains')
        return
        ;;
    '--pick')
        return
        ;;
    '--timeout')
        return
        ;;
    '--connect-timeout')
        return
        ;;
    '--passkey')
        return
        ;;
    '--repair')
        return
        ;;
    '--store')
        return
        ;;
    '--hci')
        return
        ;;
    '--own-address')
        __nearby_add_completions -W 'random'$'\n''public'
        return
        ;;
    '--hci-log')
        return
        ;;
    '--hci-log-max-mb')
        return
        ;;
    '--log-level')
        __nearby_add_completions -W 'trace'$'\n''debug'$'\n''info'$'\n''notice'$'\n''warning'$'\n''error'$'\n''critical'
        return
        ;;
    esac
}

_nearby_accessories() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __nearby_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    list|rename|forget|migrate)
        # Offer subcommand argument completions
        "_nearby_accessories_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'list rename forget migrate' -- "${cur}"))
        ;;
    esac
}

_nearby_accessories_list() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--store)
    __nearby_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        return
        ;;
    esac
}

_nearby_accessories_rename() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--store)
    __nearby_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--store')
        return
        ;;
    esac
}

_nearby_accessories_forget() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --config --mqtt --mqtt-host)
    __nearby_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--store')
        return
        ;;
    '--config')
        return
        ;;
    '--mqtt')
        return
        ;;
    '--mqtt-host')
        return
        ;;
    esac
}

_nearby_accessories_migrate() {
    repeating_flags=()
    non_repeating_flags=(--random --public --bluez --json --version -h --help)
    repeating_options=()
    non_repeating_options=(--address --name --bluez-dir --store)
    __nearby_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--address')
        return
        ;;
    '--name')
        return
        ;;
    '--bluez-dir')
        return
        ;;
    '--store')
        return
        ;;
    esac
}

_nearby_replay() {
    repeating_flags=()
    non_repeating_flags=(--json --no-json --on-lost --on-found --version -h --help)
    repeating_options=(--on-enter --on-exit)
    non_repeating_options=(--speed --accessory --accessory-id --filter --zones --hysteresis --dwell --lost-after --config --hook-timeout --hook-cooldown --log-level --web --web-token --mqtt --mqtt-host)
    __nearby_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--speed')
        return
        ;;
    '--accessory')
        return
        ;;
    '--accessory-id')
        return
        ;;
    '--filter')
        return
        ;;
    '--zones')
        return
        ;;
    '--hysteresis')
        return
        ;;
    '--dwell')
        return
        ;;
    '--lost-after')
        return
        ;;
    '--config')
        return
        ;;
    '--on-enter')
        return
        ;;
    '--on-exit')
        return
        ;;
    '--hook-timeout')
        return
        ;;
    '--hook-cooldown')
        return
        ;;
    '--log-level')
        __nearby_add_completions -W 'trace'$'\n''debug'$'\n''info'$'\n''notice'$'\n''warning'$'\n''error'$'\n''critical'
        return
        ;;
    '--web')
        return
        ;;
    '--web-token')
        return
        ;;
    '--mqtt')
        return
        ;;
    '--mqtt-host')
        return
        ;;
    esac
}

_nearby_bench() {
    repeating_flags=()
    non_repeating_flags=(--json --summary --version -h --help)
    repeating_options=(--filter --held-out)
    non_repeating_options=(--zones --hysteresis --dwell --lost-after --plot --plot-dir)
    __nearby_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--filter')
        return
        ;;
    '--zones')
        return
        ;;
    '--hysteresis')
        return
        ;;
    '--dwell')
        return
        ;;
    '--lost-after')
        return
        ;;
    '--plot')
        return
        ;;
    '--plot-dir')
        return
        ;;
    '--held-out')
        return
        ;;
    esac
}

_nearby_uwb() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __nearby_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    list|info|range|raw)
        # Offer subcommand argument completions
        "_nearby_uwb_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'list info range raw' -- "${cur}"))
        ;;
    esac
}

_nearby_uwb_list() {
    repeating_flags=()
    non_repeating_flags=(--all --version -h --help)
    repeating_options=()
    non_repeating_options=()
    __nearby_offer_flags_options 0
}

_nearby_uwb_info() {
    repeating_flags=()
    non_repeating_flags=(--json --verbose --version -h --help)
    repeating_options=()
    non_repeating_options=(--device --log-level --uci-log --uci-log-max-mb)
    __nearby_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--device')
        return
        ;;
    '--log-level')
        __nearby_add_completions -W 'trace'$'\n''debug'$'\n''info'$'\n''notice'$'\n''warning'$'\n''error'$'\n''critical'
        return
        ;;
    '--uci-log')
        return
        ;;
    '--uci-log-max-mb')
        return
        ;;
    esac
}

_nearby_uwb_range() {
    repeating_flags=()
    non_repeating_flags=(--controller --controlee --json --verbose --version -h --help)
    repeating_options=(--peer)
    non_repeating_options=(--device --session-id --channel --preamble --role --mac --interval-ms --count --angles --log-level --uci-log --uci-log-max-mb)
    __nearby_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--device')
        return
        ;;
    '--session-id')
        return
        ;;
    '--channel')
        return
        ;;
    '--preamble')
        return
        ;;
    '--role')
        __nearby_add_completions -W 'initiator'$'\n''responder'
        return
        ;;
    '--mac')
        return
        ;;
    '--peer')
        return
        ;;
    '--interval-ms')
        return
        ;;
    '--count')
        return
        ;;
    '--angles')
        return
        ;;
    '--log-level')
        __nearby_add_completions -W 'trace'$'\n''debug'$'\n''info'$'\n''notice'$'\n''warning'$'\n''error'$'\n''critical'
        return
        ;;
    '--uci-log')
        return
        ;;
    '--uci-log-max-mb')
        return
        ;;
    esac
}

_nearby_uwb_raw() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--device --timeout --listen --uci-log --uci-log-max-mb)
    __nearby_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--device')
        return
        ;;
    '--timeout')
        return
        ;;
    '--listen')
        return
        ;;
    '--uci-log')
        return
        ;;
    '--uci-log-max-mb')
        return
        ;;
    esac
}

_nearby_uci() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __nearby_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    decode)
        # Offer subcommand argument completions
        "_nearby_uci_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'decode' -- "${cur}"))
        ;;
    esac
}

_nearby_uci_decode() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--uci-version)
    __nearby_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--uci-version')
        return
        ;;
    esac
}

_nearby_sim() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __nearby_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    uwbs)
        # Offer subcommand argument completions
        "_nearby_sim_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'uwbs' -- "${cur}"))
        ;;
    esac
}

_nearby_sim_uwbs() {
    repeating_flags=()
    non_repeating_flags=(--auto-peers --no-reset-required --verbose --trace --version -h --help)
    repeating_options=(--peer)
    non_repeating_options=(--listen --scenario --seed --noise --uci-version --max-sessions --channels --speed --response-delay-ms --packet-payload)
    __nearby_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--listen')
        return
        ;;
    '--scenario')
        return
        ;;
    '--seed')
        return
        ;;
    '--noise')
        return
        ;;
    '--uci-version')
        return
        ;;
    '--max-sessions')
        return
        ;;
    '--channels')
        return
        ;;
    '--peer')
        return
        ;;
    '--speed')
        return
        ;;
    '--response-delay-ms')
        return
        ;;
    '--packet-payload')
        return
        ;;
    esac
}

_nearby_watch() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--prefix --house --config --web --web-token)
    __nearby_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--prefix')
        return
        ;;
    '--house')
        return
        ;;
    '--config')
        return
        ;;
    '--web')
        return
        ;;
    '--web-token')
        return
        ;;
    esac
}

_nearby_house() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __nearby_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    survey)
        # Offer subcommand argument completions
        "_nearby_house_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'survey' -- "${cur}"))
        ;;
    esac
}

_nearby_house_survey() {
    repeating_flags=()
    non_repeating_flags=(--simulate --version -h --help)
    repeating_options=(--fix)
    non_repeating_options=(--house --mqtt --seconds --seed --speed --config --log-level)
    __nearby_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--house')
        return
        ;;
    '--mqtt')
        return
        ;;
    '--fix')
        return
        ;;
    '--seconds')
        return
        ;;
    '--seed')
        return
        ;;
    '--speed')
        return
        ;;
    '--config')
        return
        ;;
    '--log-level')
        __nearby_add_completions -W 'trace'$'\n''debug'$'\n''info'$'\n''notice'$'\n''warning'$'\n''error'$'\n''critical'
        return
        ;;
    esac
}

_nearby_config() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __nearby_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    check|example|path)
        # Offer subcommand argument completions
        "_nearby_config_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'check example path' -- "${cur}"))
        ;;
    esac
}

_nearby_config_check() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __nearby_offer_flags_options 1
}

_nearby_config_example() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __nearby_offer_flags_options 0
}

_nearby_config_path() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __nearby_offer_flags_options 0
}

_nearby_doctor() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--hci --config)
    __nearby_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--hci')
        return
        ;;
    '--config')
        return
        ;;
    esac
}

_nearby_help() {
    repeating_flags=()
    non_repeating_flags=(--version)
    repeating_options=()
    non_repeating_options=()
    __nearby_offer_flags_options -1
}

complete -o filenames -F _nearby nearby
