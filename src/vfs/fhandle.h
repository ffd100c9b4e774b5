/* vfs/fhandle.h: file handles (name_to_handle_at, open_by_handle_at): a
 * filesystem's name for an inode that outlives its paths, and the path of
 * a handle again in a mount of that filesystem. */
#ifndef VFS_FHANDLE_H
#define VFS_FHANDLE_H

#include <stdbool.h>
#include <stdint.h>

#include "vfs/vfs.h"

/* Linux's FILEID_INVALID: the type an overflowed handle reports. */
#define FILEID_INVALID 0xff

/* p's handle in fh (room for *len bytes; *len set to the size it takes):
 * its type in *type; fid: AT_HANDLE_FID's, for identity only. 0,
 * -EOVERFLOW (*type FILEID_INVALID, fh untouched), or -EOPNOTSUPP for a
 * filesystem whose handles cannot be opened again (fid: none). */
int fh_encode(const struct path *p, bool fid, uint8_t *fh, int *len, int *type);
/* The path in mount m of the handle fh (len bytes, any, the guest's;
 * type without the FILEID_IS_* flags, which connectable and dir stand
 * for): *out holds references. -ESTALE if it names no live file there. */
int fh_to_path(struct mount *m, const uint8_t *fh, int len, int type, bool connectable, bool dir,
	       struct path *out);

#endif
