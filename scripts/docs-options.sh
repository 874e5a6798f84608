#!/bin/sh
# The manual's sources (docs/cmd/*.md) with their generated blocks
# rewritten from the binary: the lines between
# "<!-- perfdb --generate KIND: ... -->" and "<!-- end -->" become the
# output of perfdb --generate KIND (a command's NAME and SYNOPSIS, its
# options from its table, the list of commands, the list of formats).
# tests/sh/option-tables.sh checks that each file is as this writes it.
# Usage: docs-options.sh PERFDB DOC > NEW
perfdb=$1 doc=$2
awk -v perfdb="$perfdb" '
  skip && /^<!-- end -->$/ { skip = 0 }
  skip { next }
  { print }
  /^<!-- perfdb --generate [a-z-]+: / {
    cmd = perfdb " --generate " $4
    sub(/:$/, "", cmd)
    while ((cmd | getline line) > 0) print line
    if (close(cmd) != 0) { print "docs-options.sh: " cmd " failed" > "/dev/stderr"; exit 1 }
    skip = 1
  }
' "$doc"
