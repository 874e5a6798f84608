# perfdb: build, check, bench, demo, install
PREFIX  ?= /usr/local
BUILD   ?= build
CC      ?= cc
PKGS     = sqlite3 jansson yaml-0.1 cairo freetype2 rdkafka zlib libzstd liblzma libcrypto libxml-2.0
TESTPKGS = cmocka
# The Debian package of each (and of libcsv, which has no pkg-config file)
deb_sqlite3    = libsqlite3-dev
deb_jansson    = libjansson-dev
deb_yaml-0.1   = libyaml-dev
deb_cairo      = libcairo2-dev
deb_freetype2  = libfreetype-dev
deb_rdkafka    = librdkafka-dev
deb_zlib       = zlib1g-dev
deb_libzstd    = libzstd-dev
deb_liblzma    = liblzma-dev
deb_libcrypto  = libssl-dev
deb_libxml-2.0 = libxml2-dev
deb_cmocka     = libcmocka-dev
deb_csv        = libcsv-dev
# What make deps installs: the above, the tools the build and the demo run
DEBS     = gcc pkg-config gzip xz-utils zstd $(foreach p,$(PKGS) $(TESTPKGS) csv,$(deb_$(p))) \
           fonts-dejavu-core sqlite3 procps kcat python3-yaml rsyslog iproute2
# What the tests need beside (make check installs them, so no test skips on a new machine)
TEST_DEBS = chromium python3-scipy time git cmark-gfm man-db sysbench zsh tmux valgrind jq dpkg-dev

OPT     ?= -O2 -g
# The suite starts the ASan binary thousands of times: the sanitizers'
# runtimes are linked in (a start 20 % shorter: 86 against 69 ms), and the
# binary is not position-independent, which spares the loader the 115,000
# relocations of the sanitizers' metadata (2,387 against 1,593 page faults,
# 53 against 42 ms a start).
ASAN_OPT = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all \
           -static-libasan -static-libubsan -no-pie
# ThreadSanitizer, for the unit test of what the site's page threads run
# (tests/unit/test_threads.c): make check builds it and its library in
# build-tsan/ and runs it as one more unit test (build/tests/test_threads_tsan).
TSAN_OPT = -O1 -g -fsanitize=thread -fno-omit-frame-pointer
WARN     = -std=c11 -Wall -Wextra -Werror
DEPFLAGS = -MMD -MP

# Parallel by default: one job per CPU, unless the command line says -jN
# (a command-line -j overrides this). Sub-makes share the top one's jobs.
NPROC   := $(shell nproc 2>/dev/null || echo 1)
ifeq ($(MAKELEVEL),0)
MAKEFLAGS += -j$(NPROC)
endif

# Short output lines (CC, AR, LD, GEN); make V=1 prints the whole commands.
ifeq ($(V),1)
Q   =
say = @:
else
Q   = @
say = @printf '  %-3s %s\n'
endif
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CMOCKA_LIBS := $(shell pkg-config --libs $(TESTPKGS) 2>/dev/null)
ALL_CFLAGS = $(WARN) $(OPT) -D_GNU_SOURCE -Ilib -I$(BUILD) $(PKG_CFLAGS) $(CFLAGS)
LIBS       = $(PKG_LIBS) -lcsv -lm $(LDLIBS)
LIB_SRC  = $(sort $(wildcard lib/*.c lib/*/*.c))
CMD_SRC  = $(sort $(wildcard cmd/*.c))
SCHEMA   = $(sort $(wildcard schema/*.sql))
TEMPLATES = $(sort $(wildcard reports/*.tmpl))
LIB_OBJ  = $(LIB_SRC:%.c=$(BUILD)/%.o) $(BUILD)/schema.o $(BUILD)/report_templates.o
CMD_OBJ  = $(CMD_SRC:%.c=$(BUILD)/%.o)
UNIT_SRC = $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN = $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)

# make builds and installs nothing: first it checks that pkg-config finds
# every library (and the compiler libcsv's header, and cmocka for the unit
# tests), else it stops with one line naming the missing Debian packages
# (scripts/missing-debs.sh). The goals that install first (deps, demo,
# check...) check in the sub-make they start after the install.
INSTALL_GOALS = deps test-deps clean check test regen demo bench examples fuzz
ifeq ($(filter $(INSTALL_GOALS),$(MAKECMDGOALS)),)
MISSING_DEBS := $(shell CC="$(CC)" sh scripts/missing-debs.sh \
	$(foreach p,$(PKGS) $(if $(filter units check-build%,$(MAKECMDGOALS)),$(TESTPKGS)),$(p)=$(deb_$(p))) \
	csv.h=$(deb_csv))
ifneq ($(MISSING_DEBS),)
$(error perfdb needs the Debian packages $(MISSING_DEBS): run make deps, then make)
endif
endif

.PHONY: all build deb docs deps test-deps check check-builds check-build-opt check-build-asan check-build-tsan test demo bench regen fuzz install clean examples units

# The public targets that install what is missing (demo, check, bench...)
# then run make again, so that pkg-config's answers are read after the
# install.
SUBMAKE = $(MAKE) --no-print-directory
# the builds' sub-makes keep each target's output (a compiler error) together
BUILDMAKE = $(SUBMAKE) --output-sync=target
# (recipes calling them start with + so that they share the jobserver)

all: build

build: $(BUILD)/perfdb $(BUILD)/man/perfdb.1 $(BUILD)/perfdb.bash $(BUILD)/_perfdb
	@ln -sf $(BUILD)/perfdb perfdb

# Install the Debian packages that are missing (apt-get, via sudo when not root).
deps:
	@sh scripts/deps.sh $(DEBS)

test-deps:
	@sh scripts/deps.sh $(DEBS) $(TEST_DEBS)

$(BUILD)/perfdb: $(CMD_OBJ) $(BUILD)/libperfdb.a
	$(say) LD $@
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $(CMD_OBJ) $(BUILD)/libperfdb.a $(LIBS)

$(BUILD)/libperfdb.a: $(LIB_OBJ)
	$(say) AR $@
	$(Q)rm -f $@ && ar rcs $@ $^

# Each object depends on the headers it includes (-MMD -MP: $(BUILD)/**/*.d).
$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(say) CC $@
	$(Q)$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -c -o $@ $<

# SQL migrations compiled into the binary, in file-name order.
$(BUILD)/schema.c: $(SCHEMA) scripts/embed-schema.sh
	@mkdir -p $(BUILD)
	$(say) GEN $@
	$(Q)sh scripts/embed-schema.sh $(SCHEMA) > $@.tmp && mv $@.tmp $@

$(BUILD)/schema.o: $(BUILD)/schema.c
	$(say) CC $@
	$(Q)$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -c -o $@ $<

# Report templates compiled into the binary (perfdb report --templates DIR overrides).
$(BUILD)/report_templates.c: $(TEMPLATES) scripts/embed-templates.sh
	@mkdir -p $(BUILD)
	$(say) GEN $@
	$(Q)sh scripts/embed-templates.sh $(TEMPLATES) > $@.tmp && mv $@.tmp $@

$(BUILD)/report_templates.o: $(BUILD)/report_templates.c
	$(say) CC $@
	$(Q)$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -c -o $@ $<

# The man pages and the bash completion, printed by the binary from the
# tables that parse its options (perfdb --generate).
$(BUILD)/man/perfdb.1: $(BUILD)/perfdb scripts/gen-man.sh
	$(say) GEN $(BUILD)/man
	$(Q)sh scripts/gen-man.sh $(BUILD)/perfdb $(BUILD)/man

$(BUILD)/perfdb.bash: $(BUILD)/perfdb
	$(say) GEN $@
	$(Q)$(BUILD)/perfdb --generate complete-bash > $@.tmp && mv $@.tmp $@

$(BUILD)/_perfdb: $(BUILD)/perfdb
	$(say) GEN $@
	$(Q)$(BUILD)/perfdb --generate complete-zsh > $@.tmp && mv $@.tmp $@

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libperfdb.a
	@mkdir -p $(dir $@)
	$(say) LD $@
	$(Q)$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -MF $@.d -MT $@ -o $@ $< $(BUILD)/libperfdb.a \
		$(LIBS) $(CMOCKA_LIBS)

-include $(LIB_OBJ:.o=.d) $(CMD_OBJ:.o=.d) $(UNIT_BIN:=.d)

units: $(UNIT_BIN)

# The whole suite: once on the optimised build, once under ASan + UBSan.
# The two builds are made side by side (check-builds: two sub-makes sharing
# the jobs), then tests/run-all.sh runs every test of both at once, one more
# than the CPUs.
check: test-deps
	+@$(SUBMAKE) check-builds
	@JOBS="$(JOBS)" sh tests/run-all.sh build build-asan

check-builds: check-build-opt check-build-asan check-build-tsan

check-build-opt:
	+@$(BUILDMAKE) build units

check-build-asan:
	+@$(BUILDMAKE) BUILD=build-asan OPT="$(ASAN_OPT)" build-asan/perfdb units

# the suite runs the unit tests it finds in build/tests/: there is this one's link
check-build-tsan:
	+@$(BUILDMAKE) BUILD=build-tsan OPT="$(TSAN_OPT)" build-tsan/tests/test_threads
	@mkdir -p build/tests && ln -sf ../../build-tsan/tests/test_threads build/tests/test_threads_tsan

test: check

regen: deps
	+@$(BUILDMAKE) build units
	@ls tests/cases | REGEN=1 xargs -P $(NPROC) -n 16 sh tests/run-cases.sh build

# docs/commands.md's option lists, rewritten from perfdb NAME -h
docs: build
	@sh scripts/docs-options.sh $(BUILD)/perfdb docs/commands.md > $(BUILD)/commands.md
	@mv $(BUILD)/commands.md docs/commands.md

demo: deps
	+@$(BUILDMAKE) build
	@sh scripts/demo.sh

bench: deps
	+@$(BUILDMAKE) build
	@sh tests/bench/run.sh

fuzz:
	@sh tests/fuzz/run.sh

examples: deps
	+@$(BUILDMAKE) build
	@sh scripts/examples.sh $(BUILD)/perfdb

install: build
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(BUILD)/perfdb $(DESTDIR)$(PREFIX)/bin/perfdb
	install -d $(DESTDIR)$(PREFIX)/share/perfdb
	install -m 644 sql/plain-views.sql $(DESTDIR)$(PREFIX)/share/perfdb/plain-views.sql
	install -d $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/man/man7
	install -m 644 $(BUILD)/man/*.1 $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 644 $(BUILD)/man/*.7 $(DESTDIR)$(PREFIX)/share/man/man7
	install -d $(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 644 $(BUILD)/perfdb.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/perfdb
	install -d $(DESTDIR)$(PREFIX)/share/zsh/site-functions
	install -m 644 $(BUILD)/_perfdb $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_perfdb

# A Debian package of what install installs, under /usr, its Depends from
# dpkg-shlibdeps (scripts/make-deb.sh): DEBDIR/perfdb_VERSION_ARCH.deb
DEBDIR ?= $(BUILD)/deb
DEB_MAINTAINER ?= perfdb maintainers <perfdb@localhost>
deb: build
	@rm -rf $(DEBDIR)/debian
	+@$(SUBMAKE) install DESTDIR=$(abspath $(DEBDIR))/debian/perfdb PREFIX=/usr >/dev/null
	@sh scripts/make-deb.sh $(DEBDIR) "$(DEB_MAINTAINER)"

clean:
	rm -rf build build-asan build-tsan build-fuzz perfdb
