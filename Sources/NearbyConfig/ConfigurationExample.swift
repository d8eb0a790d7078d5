extension ConfigurationFile {
    /// A commented example configuration with every section and key (what `nearby config
    /// example` prints). It is valid: `nearby config example | nearby config check -` passes.
    public static let example = #"""
        # nearby configuration: $XDG_CONFIG_HOME/nearby/config.toml (or ~/.config/nearby/config.toml).
        # Every key is optional; a command-line flag wins over the file. Check it with
        #   nearby config check [FILE]
        # Reference: specs/config.md.

        [zones]
        # Zone boundaries in metres, increasing: near < 1.5 m, mid < 3 m, far beyond.
        boundaries = [1.5, 3.0]
        # Zone names, innermost first, one more than the boundaries (hooks use them).
        names = ["near", "mid", "far"]
        # Width of the band around each boundary, metres: enter below 1.4 m, leave at 1.6 m.
        hysteresis = 0.2
        # Seconds a new zone must hold before it is reported.
        dwell = 0.3
        # Seconds without a usable measurement before the accessory is "lost".
        lost_after = 2.0

        [filter]
        # The smoothing filter: default (= imm), imm, raw, median3, ma10, ema, one-euro, kalman,
        # hampel, or hampel+NAME (outliers removed first). `nearby bench` compares them on traces.
        name = "imm"

        # Parameters for distances (angles keep their standard values). Only the tables of the
        # filter named above are used; unset keys keep the tuned defaults shown here.
        [filter.imm]
        measurement_noise = 0.03   # metres, smallest σ of one line-of-sight measurement
        max_measurement_noise = 0.25  # metres, largest σ the learned noise may reach
        noise_time = 1.5           # seconds, time constant of the learned noise
        still_noise = 0.0000006    # m²/s, how far a still value may drift (smaller averages longer)
        moving_noise = 0.8         # m²/s³, acceleration noise of the moving model
        still_to_moving = 0.05     # per second, switching rate
        moving_to_still = 0.005    # per second, switching rate
        initial_still_probability = 0.9
        nlos_factor = 2.0          # σ multiplier for non-line-of-sight samples
        min_weight = 0.1           # lower bound of FoM/100 when scaling σ
        outlier_probability = 0.03 # share of measurements that may be outliers, at start
        min_outlier_probability = 0.03  # the share is learned within these bounds
        max_outlier_probability = 0.12
        outlier_time = 300.0       # seconds, time constant of the learned share (0 = fixed)
        outlier_spread = 10.0      # metres over which outliers are spread
        relock_time = 0.5          # seconds of agreeing outliers that mean a real jump
        relock_spread = 0.5        # metres between agreeing outliers
        initial_rate_noise = 1.0   # m/s, σ of the speed at (re)start

        [filter.kalman]
        measurement_noise = 0.05   # metres, σ of one line-of-sight measurement
        process_noise = 0.1        # m²/s³, larger follows accelerations faster
        nlos_factor = 3.0          # σ multiplier for non-line-of-sight samples
        min_weight = 0.1           # lower bound of FoM/100 when scaling σ
        gate = 4.0                 # innovation gate, standard deviations
        relock_count = 4           # agreeing rejected samples that mean a real step
        relock_spread = 0.5        # metres between agreeing rejected samples
        initial_rate_noise = 1.0   # m/s, σ of the speed at (re)start

        [filter.one_euro]
        min_cutoff = 0.2           # Hz, lower = smoother
        beta = 3.0                 # 1/m, higher = less lag when moving
        derivative_cutoff = 1.0    # Hz

        [filter.hampel]
        window = 7                 # samples
        threshold = 3.0            # robust standard deviations
        min_deviation = 0.1        # metres

        # Hooks: a command run when an accessory enters or leaves a zone, is lost or found.
        # `run` is an argv array, run without a shell; the event arrives in environment
        # variables only: NEARBY_EVENT, NEARBY_ZONE, NEARBY_PREVIOUS_ZONE, NEARBY_ACCESSORY,
        # NEARBY_ACCESSORY_ID, NEARBY_DISTANCE_M, NEARBY_TIMESTAMP (specs/hooks.md).
        [[hook]]
        name = "welcome"           # optional, for logs
        on = "enter"               # enter, exit, lost or found
        zone = "near"              # a zone name, or "*" for any (enter and exit only)
        accessory = "*"            # an accessory name or id, or "*" for any
        run = ["/usr/bin/logger", "-t", "nearby", "accessory is near"]
        timeout = 10               # seconds, then SIGTERM (SIGKILL 2 s later)
        cooldown = 30              # seconds between two runs of this hook

        [[hook]]
        on = "lost"
        run = ["/bin/sh", "-c", "echo \"lost $NEARBY_ACCESSORY at $NEARBY_TIMESTAMP\" >> \"$HOME/nearby-lost.log\""]

        [transports]
        # The BLE controller: hci:N (kernel adapter, user channel), tcp:HOST:PORT or serial:PATH[@BAUD][,rtscts].
        hci = "hci:0"
        # The UWB dev kit: usb:VID:PID[@BUS.ADDR], serial:PATH[@BAUD], tcp:HOST:PORT or sim.
        uwb = "usb:1915:520f"
        # Legacy (Bluetooth 4.x) scan and connect commands even on a Bluetooth 5 controller.
        hci_legacy = false
        # Own BLE address: "random" (a static address stored per controller) or "public".
        own_address = "random"

        [accessory]
        # nearby accessory: this host as a UWB accessory that phones range with (specs/accessory-role.md).
        name = "nearby"            # advertised (scan response) and in the GAP service
        services = ["nus", "qnis"] # served in order, the first advertised: nus (Apple's sample, Qorvo's app), qnis, apple (Apple's NI service)
        config_version = "1.1"     # UWB config data layout: "1.0" or "1.1"
        role = "responder"         # or "initiator"
        # mac = "0A0B"             # fixed UWB short address (default: one stored per kit)
        max_phones = 1             # phones at once (1-8; more share the one UWB radio)
        advertising_interval_ms = 100

        [retry]
        # Restart ranging when the accessory is lost ([zones] lost_after) while it is still near.
        max_attempts = 5           # 0 = never restart
        initial_backoff = 0.5      # seconds, doubled per attempt
        max_backoff = 30.0         # seconds

        [output]
        json = false               # JSON lines instead of text
        color = "auto"             # auto, always or never (auto: only on a terminal, not with NO_COLOR)
        log_level = "warning"      # trace, debug, info, notice, warning, error or critical

        [web]
        # The live web view (--web [ADDRESS:]PORT). Its token: the page's address must carry it
        # (?token=...); required to listen on an address other than 127.0.0.1 / ::1. 16-256
        # characters of A-Z a-z 0-9 - . _ ~; keep this file private (chmod 600) when it holds one.
        # token = "output of: openssl rand -hex 16"

        [mqtt]
        # Publish ranging to an MQTT broker with Home Assistant discovery (specs/mqtt.md).
        # `nearby range` publishes when `url` is set; demo and replay only with --mqtt URL.
        # url = "mqtt://nearby@homeassistant.local"   # or mqtts://...:8883; never a password here
        # password = "..."         # or NEARBY_MQTT_PASSWORD in the environment; chmod 600 this file
        # host_name = "hall"       # this host in topics (default: the machine's host name)
        # client_id = "nearby-hall"
        # ca_file = "/etc/nearby/ca.crt"   # TLS; cert_file and key_file for a client certificate
        topic_prefix = "nearby"    # nearby/<host>/<accessory>/state, /event, /distance
        discovery = true           # Home Assistant MQTT discovery
        discovery_prefix = "homeassistant"
        distance_rate = 2.0        # at most this many distance updates per second per accessory
        distance_step = 0.1        # metres: smaller changes are not published
        protocol = "3.1.1"         # or "5"
        keepalive = 30             # seconds
        queue = 1000               # zone events kept while the broker is unreachable
        reconnect_max = 30.0       # seconds between reconnect tries, at most
        heartbeat = 60.0           # seconds: an unchanged state is published again (0 = never)
        range_rate = 10.0          # measured samples per second on .../range, for nearby watch --house (0 = none)

        [house]
        # The whole house (specs/house.md, docs/home-assistant.md): `nearby watch --house` fuses
        # every host's ranges into a position and a room. The tables may also live in a file of
        # their own (--house FILE).
        away_after = 30.0          # seconds no host hears an accessory before it is not_home
        room_margin = 0.25         # metres inside a new room before the room changes
        room_dwell = 0.0           # seconds a new room must hold
        tag_height = 1.0           # metres above the floor an accessory is carried at
        room_topic = "room_presence"   # Home Assistant's MQTT Room feed ("" turns it off)
        espresense = false         # also publish for ESPresense Companion (espresense/...)
        # [[house.host]]           # one per host
        # name = "hall"            # the name it publishes as ([mqtt] host_name / --mqtt-host)
        # x = 0.0                  # metres east
        # y = 0.0                  # metres north
        # z = 0.8                  # the kit's height above its floor, metres
        # heading_deg = 90         # where the kit's boresight points, clockwise from north (+y)
        # floor = 0
        # [[house.room]]
        # name = "kitchen"
        # floor = 0
        # polygon = [[0, 0], [4, 0], [4, 3], [0, 3]]   # corners in order, metres

        """#
}
