/* The module xml.so (catch2_xml_read.c): Catch2 XML reports read with
 * libxml2. Called through the format catch2-xml (catch2_xml.c), which loads
 * the module when first needed. */
#ifndef PDB_FORMATS_CATCH2_XML_READ_H
#define PDB_FORMATS_CATCH2_XML_READ_H

#include "formats/format.h"

/* The format's parse: BenchmarkResults with mean and std dev bounds,
 * failed test cases. */
typedef int pdb_catch2_xml_read_fn(const struct pdb_source *src, struct pdb_run *run,
				   struct pdb_err *err);
pdb_catch2_xml_read_fn pdb_catch2_xml_read;

#endif
