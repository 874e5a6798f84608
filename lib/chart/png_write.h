/* PNG writing: cairo's RGB24 pixels to a PNG file, fast (no row filter, zlib level 1). */
#ifndef PDB_CHART_PNG_WRITE_H
#define PDB_CHART_PNG_WRITE_H

#include "err.h"

/* Write width x height pixels as an 8-bit RGB PNG. Each row starts stride
 * bytes after the one before and holds native-endian 32-bit xRGB pixels
 * (the top byte unused), as in a cairo RGB24 image surface. 0, or -1 with
 * err (PDB_EXIT_RUNTIME). */
int pdb_png_write(const char *path, const unsigned char *pixels, int width, int height,
		  int stride, struct pdb_err *err);

#endif
