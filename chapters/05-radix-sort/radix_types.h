/* radix_types.h - chapter 05's key types (their orders: radix.h), on their own: radix.h includes
 * this, and exercise ex05_image (radix_image.h) includes only this, not radix.h, whose
 * radix_image32 / radix_unimage32 are the exercise's answer. */
#ifndef KIT_RADIX_TYPES_H
#define KIT_RADIX_TYPES_H

typedef enum radix_key_type { RADIX_U32 = 0, RADIX_I32 = 1, RADIX_F32 = 2, RADIX_U64 = 3 } radix_key_type;
#define RADIX_NTYPES 4
#define RADIX_TYPES32 ((1u << RADIX_U32) | (1u << RADIX_I32) | (1u << RADIX_F32))
#define RADIX_TYPES_ALL (RADIX_TYPES32 | (1u << RADIX_U64))

#endif
