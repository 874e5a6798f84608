#!/bin/sh
# Turn schema/NNN-name.sql files into a C array of migrations, in order.
echo '/* generated from the schema directory by scripts/embed-schema.sh */'
echo '#include "store/store_internal.h"'
echo 'const struct pdb_migration pdb_migrations[] = {'
for f in "$@"; do
  printf '  { "%s",\n' "$(basename "$f" .sql)"
  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/    "/' -e 's/$/\\n"/' "$f"
  printf '  },\n'
done
echo '  { 0, 0 }'
echo '};'
