# perfdb: build, check, bench, demo, install
PREFIX  ?= /usr/local
BUILD   ?= build
CC      ?= cc
PKGS     = sqlite3 jansson yaml-0.1 cairo freetype2 rdkafka zlib libzstd liblzma libcrypto libxml-2.0
TESTPKGS = cmocka
# Debian packages that provide the above (pkg-config name -> package below)
DEBS     = gcc pkg-config gzip xz-utils zstd libsqlite3-dev libjansson-dev libyaml-dev libcairo2-dev libfreetype-dev zlib1g-dev libzstd-dev liblzma-dev libssl-dev \
           librdkafka-dev libcsv-dev libxml2-dev libcmocka-dev fonts-dejavu-core sqlite3 \
           procps kcat python3-yaml rsyslog iproute2
# What the tests need beside (make check installs them, so no test skips on a new machine)
TEST_DEBS = chromium python3-scipy time git cmark-gfm man-db sysbench zsh tmux valgrind jq

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
# Modules (lib/module.h): the code that needs a large library, built as
# BUILD/modules/NAME.so, embedded in the binary and loaded when first used;
# NAME_SRC its sources, NAME_PKGS the packages it links. The binary links
# CORE_PKGS.
CORE_PKGS   = sqlite3 jansson yaml-0.1 zlib libzstd liblzma libcrypto
MODULES     = render xml kafka
render_SRC  = lib/chart/cairo_render.c lib/chart/png_write.c
render_PKGS = cairo freetype2 zlib
xml_SRC     = lib/formats/catch2_xml_read.c
xml_PKGS    = libxml-2.0
kafka_SRC   = lib/kafka/mock.c lib/kafka/stream.c lib/kafka/workload.c
kafka_PKGS  = rdkafka jansson
MODULE_SRC  = $(foreach m,$(MODULES),$($(m)_SRC))
MODULE_OBJ  = $(MODULE_SRC:%.c=$(BUILD)/pic/%.o)
MODULE_SO   = $(MODULES:%=$(BUILD)/modules/%.so)

PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(CORE_PKGS) 2>/dev/null)
ALL_PKG_LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CMOCKA_LIBS := $(shell pkg-config --libs $(TESTPKGS) 2>/dev/null)
ALL_CFLAGS = $(WARN) $(OPT) -D_GNU_SOURCE -Ilib -I$(BUILD) $(PKG_CFLAGS) $(CFLAGS)
LIBS       = $(PKG_LIBS) -lcsv -lm $(LDLIBS)
# the unit tests link the modules' code too
ALL_LIBS   = $(ALL_PKG_LIBS) -lcsv -lm $(LDLIBS)
# what the modules call in the binary: perfdb's functions (the whole
# library is linked in, what only a module calls too), and in a sanitizer
# build the sanitizers' runtime, linked into the binary only
EXPORTS    = -Wl,--export-dynamic-symbol='pdb_*' -Wl,--export-dynamic-symbol='__asan_*' \
             -Wl,--export-dynamic-symbol='__ubsan_*' -Wl,--export-dynamic-symbol='__sanitizer_*'

LIB_SRC  = $(filter-out $(MODULE_SRC),$(sort $(wildcard lib/*.c lib/*/*.c)))
CMD_SRC  = $(sort $(wildcard cmd/*.c))
SCHEMA   = $(sort $(wildcard schema/*.sql))
TEMPLATES = $(sort $(wildcard reports/*.tmpl))
LIB_OBJ  = $(LIB_SRC:%.c=$(BUILD)/%.o) $(BUILD)/schema.o $(BUILD)/report_templates.o
CMD_OBJ  = $(CMD_SRC:%.c=$(BUILD)/%.o)
UNIT_SRC = $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN = $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)

.PHONY: all build docs deps test-deps check check-builds check-build-opt check-build-asan check-build-tsan test demo bench regen fuzz install clean examples units

# Public targets first install what is missing, then run make again so that
# pkg-config's answers are read after the install.
SUBMAKE = $(MAKE) --no-print-directory
# the builds' sub-makes keep each target's output (a compiler error) together
BUILDMAKE = $(SUBMAKE) --output-sync=target
# (recipes calling them start with + so that they share the jobserver)

all: deps
	+@$(BUILDMAKE) build

build: $(BUILD)/perfdb $(BUILD)/man/perfdb.1 $(BUILD)/perfdb.bash $(BUILD)/_perfdb
	@ln -sf $(BUILD)/perfdb perfdb

# Install the Debian packages that are missing (apt-get, via sudo when not root).
deps:
	@sh scripts/deps.sh $(DEBS)

test-deps:
	@sh scripts/deps.sh $(DEBS) $(TEST_DEBS)

$(BUILD)/perfdb: $(CMD_OBJ) $(BUILD)/modules.o $(BUILD)/libperfdb.a
	$(say) LD $@
	$(Q)$(CC) $(ALL_CFLAGS) $(EXPORTS) -o $@ $(CMD_OBJ) $(BUILD)/modules.o \
		-Wl,--whole-archive $(BUILD)/libperfdb.a -Wl,--no-whole-archive $(LIBS)

# A module's objects are position-independent (BUILD/pic/). It is linked
# without the sanitizers' flags: their runtime is the binary's, which the
# module's references find when it is loaded.
$(BUILD)/pic/%.o: %.c
	@mkdir -p $(dir $@)
	$(say) CC $@
	$(Q)$(CC) $(ALL_CFLAGS) -fPIC $(DEPFLAGS) -c -o $@ $<

define module_rule
$(BUILD)/modules/$(1).so: $$($(1)_SRC:%.c=$$(BUILD)/pic/%.o)
	@mkdir -p $$(dir $$@)
	$$(say) LD $$@
	$$(Q)$$(CC) -shared -o $$@ $$^ $$(shell pkg-config --libs $$($(1)_PKGS))
endef
$(foreach m,$(MODULES),$(eval $(call module_rule,$(m))))

# The modules embedded in the binary (lib/module.c loads them from it; the
# unit tests link the modules' objects instead).
$(BUILD)/modules.c: scripts/embed-modules.sh Makefile
	@mkdir -p $(BUILD)
	$(say) GEN $@
	$(Q)sh scripts/embed-modules.sh $(BUILD) $(MODULES) > $@.tmp && mv $@.tmp $@

$(BUILD)/modules.o: $(BUILD)/modules.c $(MODULE_SO)
	$(say) CC $@
	$(Q)$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -c -o $@ $<

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

# The man pages, made from the manual's sources (docs/cmd/*.md) by awk,
# without running the binary (a cross build makes them too); the bash and
# zsh completions, printed by the binary from the tables that parse its
# options (perfdb --generate).
$(BUILD)/man/perfdb.1: $(wildcard docs/cmd/*.md) scripts/gen-man.sh scripts/md2man.awk cmd/cmd.h
	$(say) GEN $(BUILD)/man
	$(Q)sh scripts/gen-man.sh . $(BUILD)/man

$(BUILD)/perfdb.bash: $(BUILD)/perfdb
	$(say) GEN $@
	$(Q)$(BUILD)/perfdb --generate complete-bash > $@.tmp && mv $@.tmp $@

$(BUILD)/_perfdb: $(BUILD)/perfdb
	$(say) GEN $@
	$(Q)$(BUILD)/perfdb --generate complete-zsh > $@.tmp && mv $@.tmp $@

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libperfdb.a $(MODULE_OBJ)
	@mkdir -p $(dir $@)
	$(say) LD $@
	$(Q)$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -MF $@.d -MT $@ -o $@ $< $(MODULE_OBJ) $(BUILD)/libperfdb.a \
		$(ALL_LIBS) $(CMOCKA_LIBS)

-include $(LIB_OBJ:.o=.d) $(MODULE_OBJ:.o=.d) $(CMD_OBJ:.o=.d) $(UNIT_BIN:=.d)

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

# The manual's sources (docs/cmd/*.md): their blocks made from the option
# tables (NAME, SYNOPSIS, OPTIONS, the lists of commands and formats)
# rewritten by the binary; then docs/commands.md, all of them in one file.
docs: build
	@for f in docs/cmd/*.md; do \
		sh scripts/docs-options.sh $(BUILD)/perfdb $$f > $(BUILD)/doc.md && mv $(BUILD)/doc.md $$f || exit 1; \
	done
	@sh scripts/gen-commands-md.sh . > $(BUILD)/commands.md
	@mv $(BUILD)/commands.md docs/commands.md

demo: all
	@sh scripts/demo.sh

bench: all
	@sh tests/bench/run.sh

fuzz:
	@sh tests/fuzz/run.sh

examples: all
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

clean:
	rm -rf build build-asan build-tsan build-fuzz perfdb
