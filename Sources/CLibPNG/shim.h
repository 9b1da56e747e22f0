#ifndef ROBOTCI_CLIBPNG_SHIM_H
#define ROBOTCI_CLIBPNG_SHIM_H
/* libpng's simplified API (png_image): whole images in and out of memory, no setjmp
   on the Swift side. Errors come back as a flag and png_image.message. */
#include <png.h>
#include <stdlib.h>

/* PNG_IMAGE_SIZE and friends are macros Swift cannot call. */
static inline size_t robotci_png_rgba_size(const png_image *image) {
    return (size_t)PNG_IMAGE_SIZE(*image);
}
static inline int robotci_png_failed(const png_image *image) {
    return PNG_IMAGE_FAILED(*image);
}
/* 8-bit RGBA, non-premultiplied: what every image in robotci is held as. */
static const png_uint_32 robotci_png_format_rgba = PNG_FORMAT_RGBA;
static const png_uint_32 robotci_png_image_version = PNG_IMAGE_VERSION;
#endif
