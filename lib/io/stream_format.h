/* stream_format.h - private to the stream codec (stream_write.c, stream_read.c): the sizes of its
 * buffers and of the headers in formats/dem-stream.md, and the end-of-stream marker. */
#ifndef DEM_IO_STREAM_FORMAT_H
#define DEM_IO_STREAM_FORMAT_H

#include <stdint.h>

#include "io/stream.h"

#define STAGE_CAP (256u * 1024u)
#define ZOUT_CAP (256u * 1024u)
#define IN_CAP (64u * 1024u)
#define SECTION_HEADER 16u /* tag[4], flags u32, length u64 */
#define TABLE_HEADER 16u   /* count u64, record size u32, extra u32 */
#define SECTION_REQUIRED 1u
#define RECORD_SIZE_MAX 65536u /* no record of any version may exceed it: bounds memory on hostile input */

/* The end-of-stream marker (formats/dem-stream.md §3.1), after htslib's BGZF EOF block: an empty
 * gzip member whose FEXTRA holds the subfield 'D' 'E' of length 0. zcat reads it as nothing. */
static const uint8_t dem_eos_marker[DEM_EOS_BYTES] = {
    0x1f, 0x8b, 0x08, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, /* gzip header, FLG = FEXTRA, OS 3 */
    0x04, 0x00, 0x44, 0x45, 0x00, 0x00,                         /* XLEN 4: subfield "DE", length 0 */
    0x03, 0x00,                                                 /* deflate: an empty final block */
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};            /* CRC-32 0, ISIZE 0 */

#endif
