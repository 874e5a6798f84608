#!/bin/sh
# docs/commands.md with each command's option list rewritten from the
# binary: the block between "<!-- perfdb NAME -h: ... -->" and
# "<!-- end -->" becomes the output of perfdb NAME -h, as a code block.
# tests/sh/option-tables.sh checks that the file is as this writes it.
# Usage: docs-options.sh PERFDB DOC > NEW
perfdb=$1 doc=$2
awk -v perfdb="$perfdb" '
  skip && /^<!-- end -->$/ { skip = 0 }
  skip { next }
  { print }
  /^<!-- perfdb [a-z-]+ -h: / {
    print ""
    cmd = perfdb " " $3 " -h"
    while ((cmd | getline line) > 0) print (line == "" ? "" : "    " line)
    if (close(cmd) != 0) { print "docs-options.sh: " cmd " failed" > "/dev/stderr"; exit 1 }
    print ""
    skip = 1
  }
' "$doc"
