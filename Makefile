# nearby: every set-up step lives here, so a fresh Debian 12 clone needs only `make demo` or
# `make test`. Works as root (CI) or with sudo.

SHELL        := /bin/bash
SWIFT        ?= swift
PYTHON       ?= python3
VENV         := .build/venv
VENV_STAMP   := $(VENV)/.installed
REQUIREMENTS := Tests/Peers/requirements.txt
APT_PACKAGES := pkg-config libusb-1.0-0-dev libbluetooth-dev umockdev gir1.2-umockdev-1.0 chromium \
                python3-gi python3-venv usbutils mosquitto mosquitto-clients libmosquitto-dev openssl tshark \
                libsystemd-dev dbus python3-dbus python3-dbusmock \
                binutils dpkg-dev lintian man-db libcap2-bin adduser
SUDO         := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
SWIFT_FLAGS  ?=
# The release binary links the Swift standard library and Foundation in, so it runs on a machine
# with no Swift toolchain (the .deb ships it).
# Release link (specs/runtime.md §6.1, "What the binary keeps in memory"): every function in a
# section of its own, laid out by lld in the order of packaging/nearby.order (the functions runs
# execute, from callgrind: `make order-file`), so the code a run touches is a few contiguous MB
# instead of pages scattered over 28 MB; relative relocations packed (DT_RELR, glibc >= 2.36)
# instead of 120,000 RELA entries read and applied at every start. A catch when changing such
# code-generation flags on an existing build: swift-frontend keeps an object whose LLVM IR hash is
# unchanged (the .swift_modhash section), so -function-sections alone rewrites nothing; remove the
# release *.swift.o files once to apply it.
ORDER_FILE := packaging/nearby.order
RELEASE_FLAGS := -c release --static-swift-stdlib --product nearby \
  -Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections \
  -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs \
  -Xlinker --symbol-ordering-file=$(CURDIR)/$(ORDER_FILE) -Xlinker --no-warn-symbol-ordering \
  -Xlinker --no-export-dynamic
VERSION      := $(shell packaging/build-info.sh version)
DEB_ARCH     := $(shell dpkg --print-architecture 2>/dev/null)
DEB          := .build/deb/nearby_$(VERSION)_$(DEB_ARCH).deb

.PHONY: all deps apt venv build release test test-packaging demo bench benchmarks clean help order-file \
        fuzz fuzz-build fuzz-smoke fuzz-seeds soak soak-short soak-faults test-loaded test-bluez \
        deb deb-check deb-ci docs perf perf-deps

all: build

help:
	@echo "make demo        install what is missing, build, run nearby on the built-in simulator"
	@echo "make test        install what is missing, build, run every test"
	@echo "make build       debug build (.build/debug/nearby)"
	@echo "make release     release build, Swift runtime linked in (.build/release/nearby; stripped: .build/dist/nearby, symbols in nearby.debug)"
	@echo "make deb         the Debian package .build/deb/nearby_<version>_<arch>.deb (lintian-checked)"
	@echo "make deb-check   install the .deb with dpkg -i and run it without the toolchain (root or sudo)"
	@echo "make deb-ci      CI's package check: the .deb from the test build (debug, static), lintian, deb-check"
	@echo "make docs        render the libraries' DocC documentation (.build/docs, warnings fail)"
	@echo "make perf        CPU per sample, RSS and latency histograms against the goals (specs/runtime.md)"
	@echo "make order-file  the release link's function order (packaging/nearby.order) from callgrind runs"
	@echo "make benchmarks  run Benchmarks/ (package-benchmark: throughput and mallocs)"
	@echo "make fuzz        build the libFuzzer targets (Fuzz/) and run each for FUZZ_RUNS executions"
	@echo "make soak        8 accessories at 100 Hz for SOAK_SECONDS (1 hour): counts, RSS, CPU"
	@echo "make soak-faults 8 accessories at 100 Hz through the USB emulator, with faults injected"
	@echo "make test-loaded the whole suite RUNS times (10) with both cores kept busy (.build/loaded)"
	@echo "make test-bluez  nearby through a real bluetoothd (Debian 12's) in a qemu guest, Bumble as its controller (doctor, scan, connect, range, pair, accessory; part of make test: ~5 min to build the guest once, ~2 min a run; specs/ble-bluez.md §9.1)"

## Installation of what is missing ------------------------------------------------------------

deps: apt venv

# Installs only the Debian packages that are not installed yet (no network needed otherwise).
define apt_install
	@missing=""; for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  echo "wireshark-common wireshark-common/install-setuid boolean false" | $(SUDO) debconf-set-selections; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi
endef

apt:
	$(call apt_install,$(APT_PACKAGES))

# The test peers' Python tools (Bumble), pinned, in a venv inside the build tree.
venv: $(VENV_STAMP)

$(VENV_STAMP): $(REQUIREMENTS)
	@mkdir -p .build
	@[ -x $(VENV)/bin/python ] || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install -q --disable-pip-version-check -r $(REQUIREMENTS)
	@touch $@

## Build, test, run -----------------------------------------------------------------------------

build: apt
	$(SWIFT) build $(SWIFT_FLAGS)

# The binary to ship (issue 29 packages it from here; keep the paths):
#   $(DIST)/nearby        release build, the Swift standard library, Foundation and Dispatch
#                         linked in statically (--static-swift-stdlib): it runs on Debian 12
#                         without the Swift toolchain; stripped
#   $(DIST)/nearby.debug  its debug symbols (objcopy --only-keep-debug), found by gdb through
#                         the binary's .gnu_debuglink
# The check: no library of the toolchain in `ldd`, no run path into it, and the binary runs with
# the toolchain hidden (a mount namespace with an empty tmpfs over it) when unshare can make one.
DIST := .build/dist

release: apt
	@bin=$$($(SWIFT) build $(RELEASE_FLAGS) $(SWIFT_FLAGS) --show-bin-path); \
	  if [ $(ORDER_FILE) -nt "$$bin/nearby" ]; then rm -f "$$bin/nearby"; fi  # a newer order file: link again (SwiftPM does not see it)
	$(SWIFT) build $(RELEASE_FLAGS) $(SWIFT_FLAGS)
	@mkdir -p $(DIST)
	@bin=$$($(SWIFT) build $(RELEASE_FLAGS) $(SWIFT_FLAGS) --show-bin-path) && \
	  cp $$bin/nearby $(DIST)/nearby.unstripped && \
	  objcopy --only-keep-debug $(DIST)/nearby.unstripped $(DIST)/nearby.debug && \
	  objcopy --strip-all --add-gnu-debuglink=$(DIST)/nearby.debug $(DIST)/nearby.unstripped $(DIST)/nearby && \
	  rm $(DIST)/nearby.unstripped
	@toolchain=$$(dirname $$(dirname $$(readlink -f $$(command -v $(SWIFT))))); \
	if ldd $(DIST)/nearby | grep -q "$$toolchain\|not found"; then ldd $(DIST)/nearby; echo "release: needs the toolchain's libraries"; exit 1; fi; \
	if readelf -d $(DIST)/nearby | grep -E "RPATH|RUNPATH" | grep -q "$$toolchain"; then readelf -d $(DIST)/nearby | grep PATH; echo "release: its run path names the toolchain"; exit 1; fi; \
	if unshare --mount --map-root-user true 2>/dev/null; then \
	  unshare --mount --map-root-user sh -c "mount -t tmpfs none $$toolchain && env -u LD_LIBRARY_PATH $(DIST)/nearby --version" >/dev/null || \
	    { echo "release: does not run without $$toolchain"; exit 1; }; \
	fi
	@echo "$(DIST)/nearby: $$(du -h $(DIST)/nearby | cut -f1) ($$(stat -c %s $(DIST)/nearby) bytes), symbols in $(DIST)/nearby.debug ($$(du -h $(DIST)/nearby.debug | cut -f1)); runs without the Swift toolchain"

# The whole log goes to .build/test.log too; on failure the failing tests and their issues are
# repeated at the end, so the tail of a CI log says what failed.
# At most TEST_WIDTH tests run at once. Unbounded, all ~950 start together on a 2-core machine and
# the peers they spawn (Bumble, dbusmock, Chromium, tshark) starve the in-process ones for seconds.
TEST_WIDTH ?= 12
test: deps
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	@{ SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(TEST_WIDTH) $(SWIFT) test --skip-build $(SWIFT_FLAGS) 2>&1; echo $$? > .build/test.status; } | tee .build/test.log; \
	status=$$(cat .build/test.status); \
	if [ "$$status" != 0 ]; then \
	  echo; echo "== make test: what failed (the whole log is in .build/test.log) =="; \
	  grep -a -E '^✘ |Fatal error|[Cc]rashed|exited with unexpected signal' .build/test.log | grep -a -v -E '^✘ (Suite|Test run)' | head -100; \
	  grep -a -E '^✘ Test run' .build/test.log; \
	fi; \
	exit $$status
	$(MAKE) --no-print-directory fuzz-smoke
	$(MAKE) --no-print-directory soak-short
	$(MAKE) --no-print-directory test-bluez

# The package and the rendered documentation: a static release build (~25 min on 2 cores), the
# .deb with lintian, its install check, and DocC. CI runs docs and deb-ci (the .deb from the
# debug build) instead: the release build does not fit its 40 minutes (specs/packaging.md).
test-packaging: deps
	$(MAKE) --no-print-directory docs
	$(MAKE) --no-print-directory deb-check

## Fuzzing (Fuzz/, specs/fuzzing.md) ----------------------------------------------------------
# The targets are built with libFuzzer and AddressSanitizer in a build tree of their own.

FUZZ_SCRATCH       := .build-fuzz
FUZZ_RUNS          ?= 1000000
FUZZ_SMOKE_SECONDS ?= 3
FUZZ_TARGETS       ?=

fuzz-build: apt
	$(SWIFT) build --package-path Fuzz --scratch-path $(FUZZ_SCRATCH) -Xswiftc -sanitize=fuzzer,address 2>&1 \
	  | grep -v -E "Cannot export local symbol '__(asan|sancov|sanitizer)"; exit $${PIPESTATUS[0]}

# Each target for FUZZ_RUNS executions (or FUZZ_SECONDS seconds), after replaying its regressions.
fuzz: fuzz-build
	FUZZ_SCRATCH=$(FUZZ_SCRATCH) Fuzz/fuzz.sh $(if $(FUZZ_SECONDS),seconds $(FUZZ_SECONDS),runs $(FUZZ_RUNS)) $(FUZZ_TARGETS)

# In `make test`: build every target, replay the regressions, fuzz each for a few seconds.
fuzz-smoke: fuzz-build
	FUZZ_SCRATCH=$(FUZZ_SCRATCH) FUZZ_SEED=1 Fuzz/fuzz.sh seconds $(FUZZ_SMOKE_SECONDS) $(FUZZ_TARGETS)

# Regenerates the committed seed corpora (Fuzz/Corpus/<target>) from the targets' test vectors.
fuzz-seeds: fuzz-build
	@bin=$$($(SWIFT) build --package-path Fuzz --scratch-path $(FUZZ_SCRATCH) -Xswiftc -sanitize=fuzzer,address --show-bin-path); \
	for t in $$(ls Fuzz/Sources | grep '^Fuzz' | grep -v -E 'Common$$|Support$$'); do \
	  rm -rf Fuzz/Corpus/$$t; NEARBY_FUZZ_WRITE_SEEDS=Fuzz/Corpus/$$t $$bin/$$t || exit 1; \
	done

## Soak and faults (Tests/Soak/soak.py, specs/soak.md) -----------------------------------------

SOAK_SECONDS ?= 3600
SOAK_REPORT  ?= .build/soak-report.json

# 8 accessories at 100 Hz for an hour: every sample counted, RSS sampled each minute, CPU.
soak: deps build
	$(PYTHON) Tests/Soak/soak.py --nearby $$($(SWIFT) build $(SWIFT_FLAGS) --show-bin-path)/nearby \
	  --seconds $(SOAK_SECONDS) --sample-seconds 60 --warmup-seconds 120 --report $(SOAK_REPORT)

# In `make test`: the same for 2 minutes (RSS sampled every 10 s after a 30 s warm-up).
soak-short: deps build
	$(PYTHON) Tests/Soak/soak.py --nearby $$($(SWIFT) build $(SWIFT_FLAGS) --show-bin-path)/nearby \
	  --seconds 120 --sample-seconds 10 --warmup-seconds 30 --report .build/soak-short-report.json

# The load through the umockdev USB emulator, with faults: the kit fails (DEVICE_STATUS_NTF
# ERROR), the kit is unplugged and plugged back, a hook hangs, --record hits a full disk.
soak-faults: deps build
	$(PYTHON) Tests/Soak/soak.py --nearby $$($(SWIFT) build $(SWIFT_FLAGS) --show-bin-path)/nearby \
	  --seconds 240 --sample-seconds 20 --warmup-seconds 60 --kit usb --fault-every 60 \
	  --faults device-error,unplug,hook-hang,full-disk --report .build/soak-faults-report.json

# The whole suite RUNS times in a row while two busy loops keep both cores busy (specs/soak.md §5).
RUNS ?= 10
test-loaded: deps
	SWIFT=$(SWIFT) Tests/Soak/loaded-suite.sh $(RUNS) .build/loaded

## A real bluetoothd under qemu (Tests/BlueZVM, specs/ble-bluez.md §9.1) --------------------------
# The guest is built from Debian's packages (debootstrap: bluez, dbus, Debian's kernel) into
# .build/bluez-vm the first time; nothing of it is committed.

BLUEZ_VM          := .build/bluez-vm
BLUEZ_VM_PACKAGES := qemu-system-x86 debootstrap e2fsprogs

test-bluez: deps build
	@$(MAKE) --no-print-directory apt APT_PACKAGES="$(BLUEZ_VM_PACKAGES)"
	@[ -f $(BLUEZ_VM)/root.ext4 ] || $(SUDO) env OUT=$(BLUEZ_VM) Tests/BlueZVM/build-image.sh
	$(VENV)/bin/python Tests/BlueZVM/run.py --nearby $$($(SWIFT) build $(SWIFT_FLAGS) --show-bin-path)/nearby --image $(BLUEZ_VM)

demo: deps release
	$(DIST)/nearby demo --accessories 2 --speed 4

## Performance (Tests/Perf/perf.py, specs/runtime.md section 6) ---------------------------------
# The four figures of the host path against their goals, and the two latency histograms, on the
# binary `make release` ships. perf (Debian's linux-perf) measures CPU over steady-state windows.
PERF_PACKAGES := linux-perf
PERF_REPORT   ?= .build/perf-report.json

perf-deps:
	$(call apt_install,$(PERF_PACKAGES))

PERF_CC       ?= $(shell command -v cc || command -v clang || echo cc)

perf: apt perf-deps release
	@mkdir -p .build/perf && $(PERF_CC) -O2 -o .build/perf/floor Tests/Perf/floor.c
	$(PYTHON) Tests/Perf/perf.py --nearby $(DIST)/nearby --floor .build/perf/floor --report $(PERF_REPORT) $(PERF_FLAGS)

# The release link's function order (packaging/nearby.order): the functions the demo, the raw UWB
# path and a replay execute, from callgrind on the release binary, those each sample executes
# first (specs/runtime.md §6.1, "Eighth pass"); then the binary linked again.
order-file: apt release
	$(call apt_install,valgrind binutils)
	$(PYTHON) Tests/Perf/order-file.py --binary "$$($(SWIFT) build $(RELEASE_FLAGS) $(SWIFT_FLAGS) --show-bin-path)/nearby"
	$(MAKE) release

benchmarks bench: apt
	cd Benchmarks && $(SWIFT) package --allow-writing-to-package-directory benchmark

clean:
	rm -rf .build $(FUZZ_SCRATCH) Benchmarks/.build

## Packaging: shell completions and the man page, generated from the CLI definitions ----------
# Regenerate after adding or changing a command (NearbyCLITests/PackagingTests fails until then);
# commit the files. The man page date is the last commit's, so regenerating is reproducible.

.PHONY: packaging
PACKAGING_DATE = $(shell git log -1 --format=%cs 2>/dev/null || date -u +%F)

packaging: build
	@mkdir -p packaging/completions packaging/man
	bin=$$($(SWIFT) build $(SWIFT_FLAGS) --show-bin-path) && \
	  $$bin/nearby --generate-completion-script bash > packaging/completions/nearby.bash && \
	  $$bin/nearby --generate-completion-script zsh > packaging/completions/_nearby && \
	  $$bin/nearby --generate-completion-script fish > packaging/completions/nearby.fish
	$(SWIFT) package $(SWIFT_FLAGS) plugin generate-manual --configuration debug --date $(PACKAGING_DATE)
	cp .build/plugins/GenerateManual/outputs/nearby/nearby.1 packaging/man/nearby.1
	@echo "regenerated packaging/completions/* and packaging/man/nearby.1"

## The Debian package (packaging/make-deb.sh, packaging/deb/) --------------------------------------
# nearby_<version>_<arch>.deb: the release binary (static Swift runtime), man page, completions,
# udev rule, systemd unit, postinst (nearby user, CAP_NET_ADMIN, udev reload). lintian must
# find no error. deb-check installs it with dpkg -i and runs it with the toolchain hidden.

deb: release
	packaging/make-deb.sh $(DIST)/nearby .build/deb
	lintian --fail-on error $(DEB)
	@ls -l $(DEB)

deb-check: deb
	packaging/deb-check.sh $(DEB)

# CI's package check (.ci/run, after make test): the same make-deb.sh, lintian and deb-check.sh,
# on a binary linked statically (--static-swift-stdlib) from the objects make test compiled
# (debug, unoptimised; relinking takes about 40 s). A release build takes ~25 min on 2 cores and
# does not fit CI's 40 minutes next to make test; `make deb` is what users install.
DEB_CI_DIR := .build/deb-ci
DEB_CI     := $(DEB_CI_DIR)/$(notdir $(DEB))

# The executable's own objects are compiled again for the static link and removed after it:
# the Swift driver does not recompile them when only --static-swift-stdlib changes, and objects
# carrying the static link's autolink entries (-lCoreFoundation) break the next dynamic link.
# Every object the static build compiles (the executable's, and any module make docs left out of
# date) carries static autolink entries (-l_FoundationCollections ...) that SwiftPM does not
# recompile away: they are removed after it, so the next plain build compiles them again.
deb-ci: apt
	@bin=$$($(SWIFT) build $(SWIFT_FLAGS) --show-bin-path) && rm -f $$bin/nearby.build/*.o && \
	  mkdir -p $(DEB_CI_DIR) && touch $(DEB_CI_DIR)/.static-build-start && \
	  $(SWIFT) build --static-swift-stdlib --product nearby $(SWIFT_FLAGS) && \
	  cp $$bin/nearby $(DEB_CI_DIR)/nearby && \
	  find $$bin/ -name '*.o' -newer $(DEB_CI_DIR)/.static-build-start -delete && rm -f $$bin/nearby
	packaging/make-deb.sh $(DEB_CI_DIR)/nearby $(DEB_CI_DIR)
	lintian --fail-on error $(DEB_CI)
	packaging/deb-check.sh $(DEB_CI)

## API documentation (DocC, swift-docc-plugin) ----------------------------------------------------
# Every library's catalog (Sources/<Module>/<Module>.docc) in one static site, .build/docs
# (serve it: `python3 -m http.server -d .build/docs`, then /documentation/ranging etc.;
# DOCS_BASE_PATH=nearby for a site served under /nearby/).
# Warnings fail the build (docc --warnings-as-errors): a broken ``Symbol`` link, an undocumented
# parameter. Links to another module's symbols do not resolve (DocC, even combined): write them as
# code (`UCIClient`). DOCS_LENIENT lists the modules whose source comments still have warnings:
# for them only a warning in a catalog page or article (.md) fails; empty it as they are fixed.

DOCS_TARGETS   := NearbyBase NearbySupport Ranging UCI Positioning Hooks MQTT NIProtocol UWBDevice LowEnergy BlueZ Accessories \
                  NearbyInteraction Simulation NearbyConfig NearbyRuntime NearbyWeb NearbyMQTT NearbyTerminal
DOCS_LENIENT   :=
DOCS_STRICT    := $(filter-out $(DOCS_LENIENT),$(DOCS_TARGETS))
DOCS_OUTPUT    := .build/docs
DOCS_BASE_PATH ?=
DOCC_PLUGIN     = $(SWIFT) package $(SWIFT_FLAGS) --allow-writing-to-directory .build generate-documentation

docs: apt
	rm -rf $(DOCS_OUTPUT) .build/docs-strict
ifneq ($(DOCS_LENIENT),)
	$(DOCC_PLUGIN) $(foreach t,$(DOCS_STRICT),--target $(t)) --enable-experimental-combined-documentation \
	  --output-path .build/docs-strict --warnings-as-errors
endif
	$(DOCC_PLUGIN) $(foreach t,$(DOCS_TARGETS),--target $(t)) --enable-experimental-combined-documentation \
	  --output-path $(DOCS_OUTPUT) --transform-for-static-hosting $(if $(DOCS_BASE_PATH),--hosting-base-path $(DOCS_BASE_PATH)) \
	  $(if $(DOCS_LENIENT),,--warnings-as-errors) 2>&1 | tee .build/docs.log; exit $${PIPESTATUS[0]}
	@rm -rf .build/docs-strict
	@if grep -a -A1 '^warning:' .build/docs.log | grep -a -E -- '--> .*\.md:'; then \
	  echo "make docs: DocC warnings in a catalog page or article (above): fix them"; exit 1; fi
	@echo "make docs: $(DOCS_OUTPUT): $(words $(DOCS_TARGETS)) libraries; DocC warnings left in the source comments of DOCS_LENIENT ($(or $(DOCS_LENIENT),none)): $$(grep -a -c '^warning:' .build/docs.log)"
