/*
 * kmap.h: the System.map kept beside each image in the build cache
 * (images/<key>/System.map), which a profile folds its counts with
 * (ksyms.h). Builds since maps were kept copy it there; an image cached
 * before takes its build folder's map when that folder's bzImage is
 * still byte for byte the cached one (the same build, so the same
 * symbols), and is otherwise built again when a map is wanted
 * (BUILD_WANT_MAP, kbuild.h).
 */
#ifndef IOBISECT_KMAP_H
#define IOBISECT_KMAP_H

/* The map beside `image` ("<dir of image>/System.map"); caller frees. */
char *kmap_path(const char *image);

/*
 * Give the cached image in `imgdir` its map, from the build folder its
 * build.log names: 1 when the map is there now, 0 when that folder has
 * since built something else (or is gone), -1 after error() when the
 * copy failed.
 */
int kmap_adopt(const char *imgdir);

/*
 * Copy `objdir`'s System.map into `imgdir`: 0 (also when the folder has
 * none), or -1 after error().
 */
int kmap_keep(const char *objdir, const char *imgdir);

#endif
