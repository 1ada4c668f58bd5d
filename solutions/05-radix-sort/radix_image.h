/* radix_image.h - exercise ex05_image (graded on the CPU): the order-preserving images of
 * 32-bit keys, the unsigned numbers a radix sort cuts its digits from.
 *
 * A radix sort compares nothing: it orders keys by the unsigned value of their bits.  For
 * unsigned keys that is their order; for signed and floating-point keys it is not, so every
 * pass cuts its digits from an *image* of the key: a bijection on 32-bit words whose unsigned
 * order is the key type's order (radix.h, chapter README):
 *   RADIX_U32  the key itself
 *   RADIX_I32  two's complement: INT_MIN < -1 < 0 < 1 < INT_MAX
 *   RADIX_F32  IEEE-754 binary32:  -NaN < -inf < -1 < -denormal < -0.0 < +0.0 < denormal < 1
 *              < +inf < NaN.  -0.0 and +0.0 are distinct keys, -0.0 first.  NaNs are ordered
 *              by their bits: those with the sign bit set come before -inf, the others after
 *              +inf.
 * ex05_unimage32 undoes ex05_image32 (unimage(image(k)) == k for every word k), so a sort may
 * also store images and turn them back into keys at the end.  Any other type: the identity.
 *
 * Hints: a float's bits, read as a signed-magnitude number, already order the positive floats
 * among themselves; the negative ones are in reverse order.  Each image is one or two ALU
 * operations; none needs a branch on the device (an arithmetic shift of the sign gives a mask).
 * The same code runs on the host (the tests) and in kernels (KIT_HD). */
#ifndef RADIX_IMAGE_H
#define RADIX_IMAGE_H

#include <stdint.h>

#include "kit.h"
#include "radix_types.h"

/* the image of a 32-bit key of type `type` (RADIX_U32, RADIX_I32, RADIX_F32) */
static inline KIT_HD uint32_t ex05_image32(uint32_t key, int type)
{
    // BEGIN SOLUTION
    // TODO: RADIX_I32: flip the sign bit (negative numbers then come first, in order).
    // TODO: RADIX_F32: sign bit clear -> flip the sign bit only; sign bit set -> flip every bit
    // TODO:            (a larger magnitude is a smaller number).
    // TODO: anything else (RADIX_U32): the key itself.
    // STUB: (void)key; (void)type; return 0;
    if (type == RADIX_I32) return key ^ 0x80000000u;
    if (type == RADIX_F32) return key ^ ((uint32_t)((int32_t)key >> 31) | 0x80000000u);
    return key;
    // END SOLUTION
}

/* the key whose image is `image` (the inverse of ex05_image32) */
static inline KIT_HD uint32_t ex05_unimage32(uint32_t image, int type)
{
    // BEGIN SOLUTION
    // TODO: undo ex05_image32: look at the image's top bit to know what the key's sign was
    // TODO: (for f32 an image with the top bit set came from a key with the sign bit clear).
    // STUB: (void)image; (void)type; return 0;
    if (type == RADIX_I32) return image ^ 0x80000000u;
    if (type == RADIX_F32) return image ^ ((image & 0x80000000u) ? 0x80000000u : 0xFFFFFFFFu);
    return image;
    // END SOLUTION
}

#endif
