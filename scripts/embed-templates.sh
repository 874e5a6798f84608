#!/bin/sh
# Turn reports/*.tmpl files into the C array of built-in report templates.
echo '/* generated from the reports directory by scripts/embed-templates.sh */'
echo '#include "report.h"'
echo 'const struct pdb_report_template pdb_report_templates[] = {'
for f in "$@"; do
  printf '  { "%s",\n' "$(basename "$f")"
  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/?/\\?/g' -e 's/^/    "/' -e 's/$/\\n"/' "$f"
  printf '  },\n'
done
echo '  { 0, 0 }'
echo '};'
