# nearby: every set-up step lives here, so a fresh Debian 12 clone needs only `make demo` or
# `make test`. Works as root (CI) or with sudo.

SWIFT        ?= swift
PYTHON       ?= python3
VENV         := .build/venv
VENV_STAMP   := $(VENV)/.installed
REQUIREMENTS := Tests/Peers/requirements.txt
APT_PACKAGES := pkg-config libusb-1.0-0-dev libbluetooth-dev umockdev gir1.2-umockdev-1.0 chromium \
                python3-gi python3-venv usbutils mosquitto libmosquitto-dev openssl
SUDO         := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
SWIFT_FLAGS  ?=

.PHONY: all deps apt venv build release test demo bench benchmarks clean help

all: build

help:
	@echo "make demo        install what is missing, build, run nearby on the built-in simulator"
	@echo "make test        install what is missing, build, run every test"
	@echo "make build       debug build (.build/debug/nearby)"
	@echo "make release     release build (.build/release/nearby)"
	@echo "make benchmarks  run Benchmarks/ (package-benchmark: throughput and mallocs)"

## Installation of what is missing ------------------------------------------------------------

deps: apt venv

# Installs only the Debian packages that are not installed yet (no network needed otherwise).
apt:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi

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

release: apt
	$(SWIFT) build -c release $(SWIFT_FLAGS)

# The whole log goes to .build/test.log too; on failure the failing tests and their issues are
# repeated at the end, so the tail of a CI log says what failed.
test: deps
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	@{ $(SWIFT) test --skip-build $(SWIFT_FLAGS) 2>&1; echo $$? > .build/test.status; } | tee .build/test.log; \
	status=$$(cat .build/test.status); \
	if [ "$$status" != 0 ]; then \
	  echo; echo "== make test: what failed (the whole log is in .build/test.log) =="; \
	  grep -a -E '^✘ |Fatal error|[Cc]rashed|exited with unexpected signal' .build/test.log | grep -a -v -E '^✘ (Suite|Test run)' | head -100; \
	  grep -a -E '^✘ Test run' .build/test.log; \
	fi; \
	exit $$status

demo: deps release
	.build/release/nearby demo --accessories 2 --speed 4

benchmarks bench: apt
	cd Benchmarks && $(SWIFT) package --allow-writing-to-package-directory benchmark

clean:
	rm -rf .build Benchmarks/.build

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
