function __nearby_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __nearby_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __nearby_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __nearby_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __nearby_parse_tokens -S
    set -l unparsed_tokens (__nearby_tokens -pc)
    switch $unparsed_tokens[1]
    case 'nearby'
        __nearby_parse_subcommand 0 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'range'
            __nearby_parse_subcommand -r 1 'all' 'hci=' 'hci-legacy' 'own-address=' 'uwb=' 'record=' 'scan-seconds=' 'store=' 'config=' 'filter=' 'zones=' 'hysteresis=' 'dwell=' 'lost-after=' 'on-enter=+' 'on-exit=+' 'on-lost' 'on-found' 'hook-timeout=' 'hook-cooldown=' 'log-level=' 'dialect=' 'sts-order=' 'json' 'verbose' 'uci-log=' 'uci-log-max-mb=' 'hci-log=' 'hci-log-max-mb=' 'version' 'h/help'
        case 'demo'
            __nearby_parse_subcommand 0 'scenario=' 'accessories=' 'speed=' 'duration=' 'seed=' 'interval-ms=' 'serve-kit=' 'kit=' 'record=' 'kit-stats' 'config=' 'filter=' 'zones=' 'hysteresis=' 'dwell=' 'lost-after=' 'on-enter=+' 'on-exit=+' 'on-lost' 'on-found' 'hook-timeout=' 'hook-cooldown=' 'log-level=' 'dialect=' 'sts-order=' 'json' 'verbose' 'uci-log=' 'uci-log-max-mb=' 'version' 'h/help'
        case 'scan'
            __nearby_parse_subcommand 0 'service=' 'company=' 'manufacturer-data=' 'service-data=' 'ignore-case' 'range=' 'name=' 'duration=' 'json' 'hci=' 'verbose' 'hci-legacy' 'own-address=' 'hci-log=' 'hci-log-max-mb=' 'log-level=' 'version' 'h/help'
        case 'setup'
            __nearby_parse_subcommand 0 'name=' 'service=' 'company=' 'manufacturer-data=' 'service-data=' 'ignore-case' 'range=' 'name-contains=' 'pick=' 'timeout=' 'connect-timeout=' 'json' 'pair' 'passkey=' 'confirm' 'repair=' 'store=' 'hci=' 'verbose' 'hci-legacy' 'own-address=' 'hci-log=' 'hci-log-max-mb=' 'log-level=' 'version' 'h/help'
        case 'accessories'
            __nearby_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'list'
                __nearby_parse_subcommand 0 'json' 'store=' 'version' 'h/help'
            case 'rename'
                __nearby_parse_subcommand 2 'json' 'store=' 'version' 'h/help'
            case 'forget'
                __nearby_parse_subcommand 1 'json' 'store=' 'version' 'h/help'
            case 'migrate'
                __nearby_parse_subcommand 0 'address=' 'random' 'public' 'name=' 'bluez' 'bluez-dir=' 'json' 'store=' 'version' 'h/help'
            end
        case 'replay'
            __nearby_parse_subcommand 1 'speed=' 'accessory=' 'accessory-id=' 'json' 'no-json' 'filter=' 'zones=' 'hysteresis=' 'dwell=' 'lost-after=' 'config=' 'on-enter=+' 'on-exit=+' 'on-lost' 'on-found' 'hook-timeout=' 'hook-cooldown=' 'log-level=' 'version' 'h/help'
        case 'bench'
            __nearby_parse_subcommand -r 1 'filter=+' 'zones=' 'hysteresis=' 'dwell=' 'lost-after=' 'json' 'plot=' 'summary' 'plot-dir=' 'version' 'h/help'
        case 'uwb'
            __nearby_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'list'
                __nearby_parse_subcommand 0 'all' 'version' 'h/help'
            case 'info'
                __nearby_parse_subcommand 0 'device=' 'json' 'verbose' 'log-level=' 'uci-log=' 'uci-log-max-mb=' 'version' 'h/help'
            case 'range'
                __nearby_parse_subcommand 0 'device=' 'session-id=' 'channel=' 'preamble=' 'role=' 'controller' 'controlee' 'mac=' 'peer=+' 'interval-ms=' 'count=' 'json' 'verbose' 'log-level=' 'uci-log=' 'uci-log-max-mb=' 'version' 'h/help'
            case 'raw'
                __nearby_parse_subcommand -r 1 'device=' 'timeout=' 'listen=' 'uci-log=' 'uci-log-max-mb=' 'version' 'h/help'
            end
        case 'uci'
            __nearby_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'decode'
                __nearby_parse_subcommand -r 1 'json' 'uci-version=' 'version' 'h/help'
            end
        case 'sim'
            __nearby_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'uwbs'
                __nearby_parse_subcommand 0 'listen=' 'scenario=' 'seed=' 'noise=' 'uci-version=' 'max-sessions=' 'channels=' 'peer=+' 'auto-peers' 'speed=' 'response-delay-ms=' 'packet-payload=' 'no-reset-required' 'verbose' 'trace' 'version' 'h/help'
            end
        case 'config'
            __nearby_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'check'
                __nearby_parse_subcommand 1 'version' 'h/help'
            case 'example'
                __nearby_parse_subcommand 0 'version' 'h/help'
            case 'path'
                __nearby_parse_subcommand 0 'version' 'h/help'
            end
        case 'doctor'
            __nearby_parse_subcommand 0 'hci=' 'config=' 'json' 'version' 'h/help'
        case 'help'
            __nearby_parse_subcommand -r 1 'version'
        end
    end
end

function __nearby_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __nearby_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __nearby_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __nearby_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__nearby_tokens -p)
    if test -z "$(__nearby_tokens -t)"
        set -l index (count (__nearby_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'nearby' -f
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby" version' -l 'version' -d 'Show the version.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_positional "nearby" -eq 1' -fa 'range' -d 'Range with UWB accessories the way an iPhone app does: live distance, direction and zone per accessory.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_positional "nearby" -eq 1' -fa 'demo' -d 'Range with simulated UWB accessories (no hardware): the whole NI flow on the built-in simulator.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_positional "nearby" -eq 1' -fa 'scan' -d 'Scan for BLE advertisements, filtered like AccessorySetupKit discovery descriptors.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_positional "nearby" -eq 1' -fa 'setup' -d 'Set up an accessory: scan, pick it from a live list, check its data channel, store it.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_positional "nearby" -eq 1' -fa 'accessories' -d 'List, rename, forget and migrate set-up accessories (the accessory store).'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_positional "nearby" -eq 1' -fa 'replay' -d 'Replay a recorded trace through the ranging engine and the hooks (try hooks without hardware).'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_positional "nearby" -eq 1' -fa 'bench' -d 'Compare smoothing filters on recorded traces: accuracy, jitter, lag, zone flaps, cost.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_positional "nearby" -eq 1' -fa 'uwb' -d 'Work with the UWB dev kit: list kits, show what one is, range with explicit parameters, send raw UCI packets.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_positional "nearby" -eq 1' -fa 'uci' -d 'FiRa UCI protocol tools.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_positional "nearby" -eq 1' -fa 'sim' -d 'The built-in simulator: virtual UWB subsystems in a simulated scene.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_positional "nearby" -eq 1' -fa 'config' -d 'Check the configuration file, print an example, or show where it is read from.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_positional "nearby" -eq 1' -fa 'doctor' -d 'Check USB access to UWB kits, serial ports, kernel Bluetooth, the HCI user channel, bluetoothd and the config file.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_positional "nearby" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby range" all' -l 'all' -d 'Range with every set-up accessory (if none is set up: every accessory advertising an NI data channel).'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby range" hci' -l 'hci' -d 'The BLE controller: hci:N, tcp:HOST:PORT or serial:PATH[@BAUD] (default: the config file\'s, else hci:0).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby range" hci-legacy' -l 'hci-legacy' -d 'Use the legacy (Bluetooth 4.x) scan and connect commands (config: transports.hci_legacy).'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby range" own-address' -l 'own-address' -d 'The own BLE address: random (stored per controller) or public (config: transports.own_address).' -rfka 'random public'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby range" uwb' -l 'uwb' -d 'The UWB dev kit: usb:VID:PID[@BUS.ADDR], serial:PATH[@BAUD], tcp:HOST:PORT or sim (default: the config file\'s, else the only one plugged in).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby range" record' -l 'record' -d 'Write every raw range sample to this trace file (CSV).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby range" scan-seconds' -l 'scan-seconds' -d 'How long --all scans.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby range" store' -l 'store' -d 'The accessory store file (default: $NEARBY_STORE, else $XDG_STATE_HOME/nearby/accessories.json or ~/.local/state/nearby/accessories.json).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby range" config' -l 'config' -d 'Configuration file (default: $XDG_CONFIG_HOME/nearby/config.toml or ~/.config/nearby/config.toml, if present).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby range" filter' -l 'filter' -d 'Smoothing filter (default: the config file\'s, else imm).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby range" zones' -l 'zones' -d 'Zone boundaries in metres, comma-separated, increasing (default 1.5,3).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby range" hysteresis' -l 'hysteresis' -d 'Width of the hysteresis band around each zone boundary, metres (default 0.2).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby range" dwell' -l 'dwell' -d 'Minimum dwell before a zone change is reported, seconds (default 0.3).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby range" lost-after' -l 'lost-after' -d 'Silence after which the accessory is lost, seconds (default 2).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby range"' -l 'on-enter' -d 'Run the command after -- when an accessory enters ZONE (repeatable; \'*\' = any zone).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby range"' -l 'on-exit' -d 'Run the command after -- when an accessory leaves ZONE (repeatable; \'*\' = any zone).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby range" on-lost' -l 'on-lost' -d 'Run the command after -- when an accessory is lost (silent too long).'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby range" on-found' -l 'on-found' -d 'Run the command after -- when an accessory is found (again).'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby range" hook-timeout' -l 'hook-timeout' -d 'Seconds the hook command may run before SIGTERM (then SIGKILL 2 s later); default 10.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby range" hook-cooldown' -l 'hook-cooldown' -d 'Minimum seconds between two starts of the hook command; default 0.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby range" log-level' -l 'log-level' -d 'Log level on standard error: trace, debug, info, notice, warning, error, critical (default: warning, or the config file\'s output.log_level).' -rfka 'trace debug info notice warning error critical'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby range" dialect' -l 'dialect' -d 'The NI dialect: apple (initialize 0x0A) or android (0xA5).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby range" sts-order' -l 'sts-order' -d 'How VENDOR_ID and the STS IV go to UCI: vendor-first (AOSP) or reversed (Qorvo); both sides must agree.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby range" json' -l 'json' -d 'Print one JSON object per update and per event (keys: see the README).'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby range" verbose' -l 'verbose' -d 'Log the NI exchange and UCI commands on standard error (--log-level debug).'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby range" uci-log' -l 'uci-log' -d 'Write every UCI packet to FILE: pcapng, link type FiRa UCI (299), with directions; Wireshark 4.2+ dissects it. Mode 0600, rotated at --uci-log-max-mb (3 old files kept).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby range" uci-log-max-mb' -l 'uci-log-max-mb' -d 'Size of the --uci-log file before it is rotated, MiB.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby range" hci-log' -l 'hci-log' -d 'Write every HCI packet to FILE: btsnoop (as Android\'s snoop log and btmon), pairing keys zeroed; Wireshark dissects HCI, L2CAP, ATT, SMP. Mode 0600, rotated at --hci-log-max-mb (3 old files kept).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby range" hci-log-max-mb' -l 'hci-log-max-mb' -d 'Size of the --hci-log file before it is rotated, MiB.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby range" version' -l 'version' -d 'Show the version.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby range" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby demo" scenario' -l 'scenario' -d 'The motion scenario: demo, walk-in, stand, walk-out, random-walk.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby demo" accessories' -l 'accessories' -d 'How many accessories (1-8).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby demo" speed' -l 'speed' -d 'Simulated seconds per real second (0.01-1000).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby demo" duration' -l 'duration' -d 'Stop after this many seconds of scenario time (default: when the scenario ends).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby demo" seed' -l 'seed' -d 'The seed of the radio noise and random walks.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby demo" interval-ms' -l 'interval-ms' -d 'The ranging interval the accessories ask for, ms (10 = 100 Hz; default: the planner\'s, about 5 Hz).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby demo" serve-kit' -l 'serve-kit' -d 'Serve the host\'s virtual kit over TCP at HOST:PORT (raw UCI, as nearby sim uwbs), for --kit or the USB emulator.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby demo" kit' -l 'kit' -d 'The host\'s kit: tcp:HOST:PORT (the --serve-kit address) or usb:VID:PID under the USB emulator (default: in process).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby demo" record' -l 'record' -d 'Write every raw range sample to this trace file (CSV).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby demo" kit-stats' -l 'kit-stats' -d 'At the end, print what the host\'s kit sent (packets, SESSION_INFO_NTF, measurements) as a JSON line on standard error.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby demo" config' -l 'config' -d 'Configuration file (default: $XDG_CONFIG_HOME/nearby/config.toml or ~/.config/nearby/config.toml, if present).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby demo" filter' -l 'filter' -d 'Smoothing filter (default: the config file\'s, else imm).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby demo" zones' -l 'zones' -d 'Zone boundaries in metres, comma-separated, increasing (default 1.5,3).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby demo" hysteresis' -l 'hysteresis' -d 'Width of the hysteresis band around each zone boundary, metres (default 0.2).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby demo" dwell' -l 'dwell' -d 'Minimum dwell before a zone change is reported, seconds (default 0.3).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby demo" lost-after' -l 'lost-after' -d 'Silence after which the accessory is lost, seconds (default 2).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby demo"' -l 'on-enter' -d 'Run the command after -- when an accessory enters ZONE (repeatable; \'*\' = any zone).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby demo"' -l 'on-exit' -d 'Run the command after -- when an accessory leaves ZONE (repeatable; \'*\' = any zone).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby demo" on-lost' -l 'on-lost' -d 'Run the command after -- when an accessory is lost (silent too long).'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby demo" on-found' -l 'on-found' -d 'Run the command after -- when an accessory is found (again).'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby demo" hook-timeout' -l 'hook-timeout' -d 'Seconds the hook command may run before SIGTERM (then SIGKILL 2 s later); default 10.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby demo" hook-cooldown' -l 'hook-cooldown' -d 'Minimum seconds between two starts of the hook command; default 0.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby demo" log-level' -l 'log-level' -d 'Log level on standard error: trace, debug, info, notice, warning, error, critical (default: warning, or the config file\'s output.log_level).' -rfka 'trace debug info notice warning error critical'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby demo" dialect' -l 'dialect' -d 'The NI dialect: apple (initialize 0x0A) or android (0xA5).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby demo" sts-order' -l 'sts-order' -d 'How VENDOR_ID and the STS IV go to UCI: vendor-first (AOSP) or reversed (Qorvo); both sides must agree.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby demo" json' -l 'json' -d 'Print one JSON object per update and per event (keys: see the README).'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby demo" verbose' -l 'verbose' -d 'Log the NI exchange and UCI commands on standard error (--log-level debug).'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby demo" uci-log' -l 'uci-log' -d 'Write every UCI packet to FILE: pcapng, link type FiRa UCI (299), with directions; Wireshark 4.2+ dissects it. Mode 0600, rotated at --uci-log-max-mb (3 old files kept).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby demo" uci-log-max-mb' -l 'uci-log-max-mb' -d 'Size of the --uci-log file before it is rotated, MiB.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby demo" version' -l 'version' -d 'Show the version.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby demo" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby scan" service' -l 'service' -d 'Service UUID the accessory advertises (180D, 0000180D or 8-4-4-4-12 hex).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby scan" company' -l 'company' -d 'Company identifier of its manufacturer data: 0x004C (hex) or 76 (decimal).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby scan" manufacturer-data' -l 'manufacturer-data' -d 'Manufacturer data prefix HEX[/MASK] (needs --company), e.g. 0a0b/ffff.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby scan" service-data' -l 'service-data' -d 'Service data prefix HEX[/MASK] of --service, e.g. 01/ff.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby scan" ignore-case' -l 'ignore-case' -d 'Compare the name substring ignoring case.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby scan" range' -l 'range' -d 'default (any RSSI) or immediate (RSSI >= -50 dBm: next to the adapter).' -rfka 'default immediate'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby scan" name name-contains' -l 'name' -l 'name-contains' -d 'Text the advertised name contains.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby scan" duration' -l 'duration' -d 'Stop after this many seconds (default: until Ctrl-C).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby scan" json' -l 'json' -d 'Print one JSON object per advertisement.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby scan" hci' -l 'hci' -d 'The Bluetooth controller: hci:N (kernel adapter, needs CAP_NET_ADMIN), tcp:HOST:PORT or serial:PATH[@BAUD].' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby scan" verbose' -l 'verbose' -d 'Log HCI and host activity on standard error (--log-level debug).'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby scan" hci-legacy' -l 'hci-legacy' -d 'Use the legacy (Bluetooth 4.x) scan and connect commands, for Bluetooth 5 controllers that refuse the extended ones.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby scan" own-address' -l 'own-address' -d 'The own BLE address: random (a static address generated once per controller and stored, the default) or public (the controller\'s).' -rfka 'random public'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby scan" hci-log' -l 'hci-log' -d 'Write every HCI packet to FILE: btsnoop (as Android\'s snoop log and btmon), pairing keys zeroed; Wireshark dissects HCI, L2CAP, ATT, SMP. Mode 0600, rotated at --hci-log-max-mb (3 old files kept).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby scan" hci-log-max-mb' -l 'hci-log-max-mb' -d 'Size of the --hci-log file before it is rotated, MiB.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby scan" log-level' -l 'log-level' -d 'Log level on standard error: trace, debug, info, notice, warning, error, critical (default: warning, or the config file\'s output.log_level).' -rfka 'trace debug info notice warning error critical'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby scan" version' -l 'version' -d 'Show the version.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby scan" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby setup" name' -l 'name' -d 'The display name to store (default: the advertised name, or the name an accessory set up before has).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby setup" service' -l 'service' -d 'Service UUID the accessory advertises (180D, 0000180D or 8-4-4-4-12 hex).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby setup" company' -l 'company' -d 'Company identifier of its manufacturer data: 0x004C (hex) or 76 (decimal).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby setup" manufacturer-data' -l 'manufacturer-data' -d 'Manufacturer data prefix HEX[/MASK] (needs --company), e.g. 0a0b/ffff.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby setup" service-data' -l 'service-data' -d 'Service data prefix HEX[/MASK] of --service, e.g. 01/ff.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby setup" ignore-case' -l 'ignore-case' -d 'Compare the name substring ignoring case.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby setup" range' -l 'range' -d 'default (any RSSI) or immediate (RSSI >= -50 dBm: next to the adapter).' -rfka 'default immediate'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby setup" name-contains' -l 'name-contains' -d 'Text the advertised name contains.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby setup" pick' -l 'pick' -d 'Pick without asking: first, an address, or an advertised name.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby setup" timeout' -l 'timeout' -d 'Give up after this many seconds without a pick (default: 30 with --pick, else none).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby setup" connect-timeout' -l 'connect-timeout' -d 'Seconds the accessory may take to accept the connection.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby setup" json' -l 'json' -d 'Print the stored record as JSON on standard output.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby setup" pair' -l 'pair' -d 'Pair with the accessory and store the keys with it (AccessorySetupKit\'s bluetoothPairingLE).'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby setup" passkey' -l 'passkey' -d 'The six-digit passkey the accessory shows, for scripts (else asked on the terminal).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby setup" confirm' -l 'confirm' -d 'Accept the numeric comparison without asking (check the accessory shows the printed number).'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby setup" repair' -l 'repair' -d 'Pair a stored accessory again (it forgot the bond, or was reset): its old keys are removed first.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby setup" store' -l 'store' -d 'The accessory store file (default: $NEARBY_STORE, else $XDG_STATE_HOME/nearby/accessories.json or ~/.local/state/nearby/accessories.json).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby setup" hci' -l 'hci' -d 'The Bluetooth controller: hci:N (kernel adapter, needs CAP_NET_ADMIN), tcp:HOST:PORT or serial:PATH[@BAUD].' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby setup" verbose' -l 'verbose' -d 'Log HCI and host activity on standard error (--log-level debug).'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby setup" hci-legacy' -l 'hci-legacy' -d 'Use the legacy (Bluetooth 4.x) scan and connect commands, for Bluetooth 5 controllers that refuse the extended ones.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby setup" own-address' -l 'own-address' -d 'The own BLE address: random (a static address generated once per controller and stored, the default) or public (the controller\'s).' -rfka 'random public'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby setup" hci-log' -l 'hci-log' -d 'Write every HCI packet to FILE: btsnoop (as Android\'s snoop log and btmon), pairing keys zeroed; Wireshark dissects HCI, L2CAP, ATT, SMP. Mode 0600, rotated at --hci-log-max-mb (3 old files kept).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby setup" hci-log-max-mb' -l 'hci-log-max-mb' -d 'Size of the --hci-log file before it is rotated, MiB.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby setup" log-level' -l 'log-level' -d 'Log level on standard error: trace, debug, info, notice, warning, error, critical (default: warning, or the config file\'s output.log_level).' -rfka 'trace debug info notice warning error critical'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby setup" version' -l 'version' -d 'Show the version.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby setup" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby accessories" version' -l 'version' -d 'Show the version.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby accessories" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_positional "nearby accessories" -eq 1' -fa 'list' -d 'List the set-up accessories (--json: an array of the stored records).'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_positional "nearby accessories" -eq 1' -fa 'rename' -d 'Rename an accessory.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_positional "nearby accessories" -eq 1' -fa 'forget' -d 'Remove an accessory from the store.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_positional "nearby accessories" -eq 1' -fa 'migrate' -d 'Add accessories the system already knows: by address, or from BlueZ\'s bond directory.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby accessories list" json' -l 'json' -d 'Print the records as a JSON array (the store\'s keys).'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby accessories list" store' -l 'store' -d 'The accessory store file (default: $NEARBY_STORE, else $XDG_STATE_HOME/nearby/accessories.json or ~/.local/state/nearby/accessories.json).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby accessories list" version' -l 'version' -d 'Show the version.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby accessories list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby accessories rename" json' -l 'json' -d 'Print the changed record as JSON.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby accessories rename" store' -l 'store' -d 'The accessory store file (default: $NEARBY_STORE, else $XDG_STATE_HOME/nearby/accessories.json or ~/.local/state/nearby/accessories.json).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby accessories rename" version' -l 'version' -d 'Show the version.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby accessories rename" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby accessories forget" json' -l 'json' -d 'Print the removed record as JSON.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby accessories forget" store' -l 'store' -d 'The accessory store file (default: $NEARBY_STORE, else $XDG_STATE_HOME/nearby/accessories.json or ~/.local/state/nearby/accessories.json).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby accessories forget" version' -l 'version' -d 'Show the version.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby accessories forget" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby accessories migrate" address' -l 'address' -d 'The accessory\'s address (AA:BB:CC:DD:EE:FF).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby accessories migrate" random' -l 'random' -d 'The address is a random (static) address.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby accessories migrate" public' -l 'public' -d 'The address is a public address.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby accessories migrate" name' -l 'name' -d 'The display name (default: BlueZ\'s name, else the address).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby accessories migrate" bluez' -l 'bluez' -d 'Read BlueZ\'s bond directory.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby accessories migrate" bluez-dir' -l 'bluez-dir' -d 'BlueZ\'s bond directory.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby accessories migrate" json' -l 'json' -d 'Print the migrated records as JSON lines.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby accessories migrate" store' -l 'store' -d 'The accessory store file (default: $NEARBY_STORE, else $XDG_STATE_HOME/nearby/accessories.json or ~/.local/state/nearby/accessories.json).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby accessories migrate" version' -l 'version' -d 'Show the version.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby accessories migrate" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby replay" speed' -l 'speed' -d 'Replay speed: 1 = real time, 10 = ten times faster, 0 = as fast as possible (hooks in order).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby replay" accessory' -l 'accessory' -d 'The accessory name hooks see (NEARBY_ACCESSORY).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby replay" accessory-id' -l 'accessory-id' -d 'The accessory id hooks see (NEARBY_ACCESSORY_ID; default: the trace\'s file name).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby replay" json' -l 'json' -d 'Print JSON lines (type update, event, hook, summary) instead of text (default: the config file\'s output.json).'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby replay" no-json' -l 'no-json' -d 'Print JSON lines (type update, event, hook, summary) instead of text (default: the config file\'s output.json).'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby replay" filter' -l 'filter' -d 'Smoothing filter (default: the config file\'s, else imm).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby replay" zones' -l 'zones' -d 'Zone boundaries in metres, comma-separated, increasing (default 1.5,3).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby replay" hysteresis' -l 'hysteresis' -d 'Width of the hysteresis band around each zone boundary, metres (default 0.2).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby replay" dwell' -l 'dwell' -d 'Minimum dwell before a zone change is reported, seconds (default 0.3).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby replay" lost-after' -l 'lost-after' -d 'Silence after which the accessory is lost, seconds (default 2).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby replay" config' -l 'config' -d 'Configuration file (default: $XDG_CONFIG_HOME/nearby/config.toml or ~/.config/nearby/config.toml, if present).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby replay"' -l 'on-enter' -d 'Run the command after -- when an accessory enters ZONE (repeatable; \'*\' = any zone).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby replay"' -l 'on-exit' -d 'Run the command after -- when an accessory leaves ZONE (repeatable; \'*\' = any zone).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby replay" on-lost' -l 'on-lost' -d 'Run the command after -- when an accessory is lost (silent too long).'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby replay" on-found' -l 'on-found' -d 'Run the command after -- when an accessory is found (again).'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby replay" hook-timeout' -l 'hook-timeout' -d 'Seconds the hook command may run before SIGTERM (then SIGKILL 2 s later); default 10.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby replay" hook-cooldown' -l 'hook-cooldown' -d 'Minimum seconds between two starts of the hook command; default 0.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby replay" log-level' -l 'log-level' -d 'Log level on standard error: trace, debug, info, notice, warning, error, critical (default: warning, or the config file\'s output.log_level).' -rfka 'trace debug info notice warning error critical'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby replay" version' -l 'version' -d 'Show the version.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby replay" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby bench"' -l 'filter' -d 'A filter to run; repeat for several (default: all).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby bench" zones' -l 'zones' -d 'Zone boundaries in metres, comma-separated, increasing.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby bench" hysteresis' -l 'hysteresis' -d 'Width of the hysteresis band around each zone boundary, metres.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby bench" dwell' -l 'dwell' -d 'Minimum dwell before a zone change is reported, seconds.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby bench" lost-after' -l 'lost-after' -d 'Silence after which the accessory is lost, seconds.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby bench" json' -l 'json' -d 'Print one JSON object {"results":[...]} on stdout and nothing else.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby bench" plot' -l 'plot' -d 'Write an SVG plot of truth, raw samples and every filter over time.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby bench" summary' -l 'summary' -d 'Print a summary instead of the per-trace tables: wins and ratios to the best baseline per filter, the default\'s goal per trace (the baselines and the default always run).'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby bench" plot-dir' -l 'plot-dir' -d 'With --summary: write one SVG per trace (truth, raw, the default, the best baseline) into this directory.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby bench" version' -l 'version' -d 'Show the version.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby bench" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby uwb" version' -l 'version' -d 'Show the version.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby uwb" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_positional "nearby uwb" -eq 1' -fa 'list' -d 'List UWB dev kits on USB (libusb) and USB serial ports.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_positional "nearby uwb" -eq 1' -fa 'info' -d 'Reset the UWB subsystem and print its UCI / MAC / PHY versions and capabilities.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_positional "nearby uwb" -eq 1' -fa 'range' -d 'Range with a UWB peer using explicit FiRa parameters (no BLE): live distance and angles.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_positional "nearby uwb" -eq 1' -fa 'raw' -d 'Send raw UCI packets to a UWB subsystem and print every packet that comes back.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby uwb list" all' -l 'all' -d 'Also list USB devices that are not known UWB dev kits.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby uwb list" version' -l 'version' -d 'Show the version.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby uwb list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby uwb info" device' -l 'device' -d 'The UWB subsystem: usb:VID:PID[@BUS.ADDR], serial:PATH[@BAUD], tcp:HOST:PORT or sim.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby uwb info" json' -l 'json' -d 'Print one JSON object instead of readable text.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby uwb info" verbose' -l 'verbose' -d 'Log every UCI command and response on standard error (--log-level debug).'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby uwb info" log-level' -l 'log-level' -d 'Log level on standard error: trace, debug, info, notice, warning, error, critical (default: warning, or the config file\'s output.log_level).' -rfka 'trace debug info notice warning error critical'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby uwb info" uci-log' -l 'uci-log' -d 'Write every UCI packet to FILE: pcapng, link type FiRa UCI (299), with directions; Wireshark 4.2+ dissects it. Mode 0600, rotated at --uci-log-max-mb (3 old files kept).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby uwb info" uci-log-max-mb' -l 'uci-log-max-mb' -d 'Size of the --uci-log file before it is rotated, MiB.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby uwb info" version' -l 'version' -d 'Show the version.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby uwb info" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby uwb range" device' -l 'device' -d 'The UWB subsystem: usb:VID:PID[@BUS.ADDR], serial:PATH[@BAUD], tcp:HOST:PORT or sim.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby uwb range" session-id' -l 'session-id' -d 'The session ID, decimal or 0x hex; both peers use the same.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby uwb range" channel' -l 'channel' -d 'UWB channel: 5, 6, 8, 9, 10, 12, 13 or 14.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby uwb range" preamble' -l 'preamble' -d 'Preamble code index: 9-12 (BPRF) or 25-32 (HPRF).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby uwb range" role' -l 'role' -d 'Ranging role: initiator (starts each round) or responder.' -rfka 'initiator responder'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby uwb range" controller' -l 'controller' -d 'This device controls the session.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby uwb range" controlee' -l 'controlee' -d 'The peer controls the session.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby uwb range" mac' -l 'mac' -d 'This device\'s MAC address: 0x0001 (short) or 16 hex digits (extended).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby uwb range"' -l 'peer' -d 'The peer\'s MAC address; repeat it for a one-to-many controller.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby uwb range" interval-ms' -l 'interval-ms' -d 'Milliseconds between ranging rounds.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby uwb range" count' -l 'count' -d 'Stop after this many range samples (default: until Ctrl-C).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby uwb range" json' -l 'json' -d 'Print one JSON object per range sample.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby uwb range" verbose' -l 'verbose' -d 'Log every UCI command and response on standard error (--log-level debug).'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby uwb range" log-level' -l 'log-level' -d 'Log level on standard error: trace, debug, info, notice, warning, error, critical (default: warning, or the config file\'s output.log_level).' -rfka 'trace debug info notice warning error critical'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby uwb range" uci-log' -l 'uci-log' -d 'Write every UCI packet to FILE: pcapng, link type FiRa UCI (299), with directions; Wireshark 4.2+ dissects it. Mode 0600, rotated at --uci-log-max-mb (3 old files kept).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby uwb range" uci-log-max-mb' -l 'uci-log-max-mb' -d 'Size of the --uci-log file before it is rotated, MiB.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby uwb range" version' -l 'version' -d 'Show the version.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby uwb range" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby uwb raw" device' -l 'device' -d 'The UWB subsystem: usb:VID:PID[@BUS.ADDR], serial:PATH[@BAUD], tcp:HOST:PORT or sim.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby uwb raw" timeout' -l 'timeout' -d 'Seconds to wait for each response.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby uwb raw" listen' -l 'listen' -d 'Seconds to keep printing notifications after the last packet.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby uwb raw" uci-log' -l 'uci-log' -d 'Write every UCI packet to FILE: pcapng, link type FiRa UCI (299), with directions; Wireshark 4.2+ dissects it. Mode 0600, rotated at --uci-log-max-mb (3 old files kept).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby uwb raw" uci-log-max-mb' -l 'uci-log-max-mb' -d 'Size of the --uci-log file before it is rotated, MiB.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby uwb raw" version' -l 'version' -d 'Show the version.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby uwb raw" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby uci" version' -l 'version' -d 'Show the version.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby uci" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_positional "nearby uci" -eq 1' -fa 'decode' -d 'Decode UCI packets given in hex.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby uci decode" json' -l 'json' -d 'Print one JSON object per message instead of readable text.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby uci decode" uci-version' -l 'uci-version' -d 'The UCI version of the device (1.1 or 2.0); it matters only for layouts the bytes cannot tell apart.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby uci decode" version' -l 'version' -d 'Show the version.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby uci decode" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby sim" version' -l 'version' -d 'Show the version.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby sim" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_positional "nearby sim" -eq 1' -fa 'uwbs' -d 'Serve virtual UWB subsystems (FiRa UCI over TCP, like pica) that range in a simulated scene.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby sim uwbs" listen' -l 'listen' -d 'Address and port to listen on (port 0: the system picks; the first line says which).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby sim uwbs" scenario' -l 'scenario' -d 'Motion scenario: demo, walk-in, stand, walk-out, random-walk.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby sim uwbs" seed' -l 'seed' -d 'Seed of the noise and of random walks.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby sim uwbs" noise' -l 'noise' -d 'Noise model: default, line-of-sight or ideal.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby sim uwbs" uci-version' -l 'uci-version' -d 'UCI version the devices speak: 1.1 or 2.0.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby sim uwbs" max-sessions' -l 'max-sessions' -d 'Sessions per device (more answer MAX_SESSIONS).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby sim uwbs" channels' -l 'channels' -d 'Channels the radio supports, comma-separated.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby sim uwbs"' -l 'peer' -d 'A built-in peer, ACTIVE from the start (repeatable): session=ID,mac=ADDR,peer=ADDR[,channel=9][,preamble=10][,interval=200][,role=responder|initiator][,type=controlee|controller][,scenario=NAME].' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby sim uwbs" auto-peers' -l 'auto-peers' -d 'Give every ACTIVE session a mirrored peer for each DST address nobody holds.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby sim uwbs" speed' -l 'speed' -d 'Simulated seconds per real second (0.01-1000).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby sim uwbs" response-delay-ms' -l 'response-delay-ms' -d 'Delay before each command is processed, milliseconds.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby sim uwbs" packet-payload' -l 'packet-payload' -d 'Largest control packet payload the devices send (1-255); longer messages are segmented.' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby sim uwbs" no-reset-required' -l 'no-reset-required' -d 'Accept commands right after power-up (default: CORE_DEVICE_RESET first, as pica).'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby sim uwbs" verbose' -l 'verbose' -d 'Print every ranging round and device state change.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby sim uwbs" trace' -l 'trace' -d 'Print every UCI packet.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby sim uwbs" version' -l 'version' -d 'Show the version.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby sim uwbs" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby config" version' -l 'version' -d 'Show the version.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby config" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_positional "nearby config" -eq 1' -fa 'check' -d 'Check a configuration file: every problem with its line and key (exit 1), or a summary (exit 0).'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_positional "nearby config" -eq 1' -fa 'example' -d 'Print a commented example configuration (every section and key).'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_positional "nearby config" -eq 1' -fa 'path' -d 'Print the path of the default configuration file (whether or not it exists).'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby config check" version' -l 'version' -d 'Show the version.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby config check" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby config example" version' -l 'version' -d 'Show the version.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby config example" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby config path" version' -l 'version' -d 'Show the version.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby config path" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby doctor" hci' -l 'hci' -d 'The controller to check: hci:N, tcp:HOST:PORT or serial:PATH (default: the config file\'s transports.hci, else hci:0).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby doctor" config' -l 'config' -d 'Configuration file to check (default: $XDG_CONFIG_HOME/nearby/config.toml or ~/.config/nearby/config.toml, if present).' -rfka ''
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby doctor" json' -l 'json' -d 'Print one JSON object {"findings":[...],"blocking":N,"warnings":N}.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby doctor" version' -l 'version' -d 'Show the version.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby doctor" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'nearby' -n '__nearby_should_offer_completions_for_flags_or_options "nearby help" version' -l 'version' -d 'Show the version.'
