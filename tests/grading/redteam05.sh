#!/usr/bin/env bash
# tests/grading/redteam05.sh CLASS REPO - the red team of chapter 05 (docs/grading.md, "Threat
# model"): students who reach the kit's own answer to ex05_image (radix.h's radix_image32 and
# radix_unimage32, static inline: no symbol to see) through spellings of an #include that a text
# filter reads differently from the preprocessor, through what the runner's own translation unit
# holds, or with an answer that is no answer (the identity).  Each is written into CLASS; the
# expected score is what its honest part earns (tests/grading/run.sh grades and checks).
set -euo pipefail
class=${1:?usage: redteam05.sh CLASS REPO}
repo=${2:?usage: redteam05.sh CLASS REPO}
skel=$(mktemp -d)
"$repo/tools/mkexercises.sh" "$repo/solutions" "$skel" >/dev/null
X=$skel/05-radix-sort
mk() { rm -rf "${class:?}/$1"; mkdir -p "$class/$1/05-radix-sort"; }

# the honest student: the solutions of both CPU exercises
mk honest05
cp "$repo"/solutions/05-radix-sort/radix_image.h "$repo"/solutions/05-radix-sort/radix_offsets.h "$class/honest05/05-radix-sort/"

# image INCLUDE-LINE: ex05_image answered by radix.h, reached through the include on the lines
# given (backslash escapes as printf's %b reads them)
image() {
  mk "$1"
  {
    printf '#ifndef RADIX_IMAGE_H\n#define RADIX_IMAGE_H\n#include <stdint.h>\n#include "kit.h"\n'
    printf '#include "radix_types.h"\n'
    printf '%b' "$2"
    printf '#define ex05_image32(k, t) radix_image32(k, t)\n#define ex05_unimage32(k, t) radix_unimage32(k, t)\n'
    printf '#endif\n'
    printf '%b' "${3:-}"
  } >"$class/$1/05-radix-sort/radix_image.h"
}
image inc_comment '/* the kit */ #include "radix.h"\n'
image inc_comment2 '# /* a comment inside */ include "radix.h"\n'
image inc_splice '#inc\\\nlude "radix.h"\n'
image inc_splice2 '#\\\ninclude \\\n"radix.h"\n'
image inc_trigraph '??=include "radix.h"\n'
image inc_digraph '%: include "radix.h"\n'
image inc_macro '#define RT_Q(x) #x\n#define RT_S(x) RT_Q(x)\n#define RT_H RT_S(radix.h)\n#include RT_H\n'
image inc_angle '#include <radix.h>\n'
image inc_dotdot '#include "../../chapters/05-radix-sort/./radix.h"\n'
image inc_next '#include_next "radix.h"\n'
image inc_pragma '#pragma GCC system_header\n#include "radix.h"\n'
image inc_formfeed '#\f\vinclude "radix.h"\n'
image inc_line '#line 1 "radix_types.h"\n#include "radix.h"\n#line 9 "radix_image.h"\n'
# the include on the last line, with no newline after it (the header guard closed first)
mk inc_lastline
printf '#ifndef RADIX_IMAGE_H\n#define RADIX_IMAGE_H\n#include <stdint.h>\n#include "kit.h"\n#include "radix_types.h"\n#define ex05_image32(k, t) radix_image32(k, t)\n#define ex05_unimage32(k, t) radix_unimage32(k, t)\n#endif\n#include "radix.h"' \
  >"$class/inc_lastline/05-radix-sort/radix_image.h"
# __has_include only tells whether a file is there: the skeleton's answer (0) is what it has
mk has_include; cp "$X"/radix_image.h "$class/has_include/05-radix-sort/"
sed -i 's|#include "radix_types.h"|&\n#if __has_include("radix.h")\n#define RT_HAVE_RADIX 1\n#endif|' "$class/has_include/05-radix-sort/radix_image.h"

# the runner's translation unit holds the test's reference helper (bases_ref): named from a
# macro, it answers ex05_scatter_bases with no include and no new symbol (honest part: the
# solution's ex05_tile_scatter)
mk runner_helper; cp "$repo"/solutions/05-radix-sort/radix_offsets.h "$class/runner_helper/05-radix-sort/"
sed -i 's|^#endif|static size_t bases_ref(const uint32_t *counts, size_t R, size_t T, size_t *base);\n#define ex05_scatter_bases(c, R, T, b) bases_ref(c, R, T, b)\n&|' \
  "$class/runner_helper/05-radix-sort/radix_offsets.h"
# ... and radix.h's images, in the runner's translation unit when the test includes it there
mk runner_radix_h; cp "$X"/radix_image.h "$class/runner_radix_h/05-radix-sort/"
sed -i 's|^#endif|#define ex05_image32(k, t) radix_image32(k, t)\n#define ex05_unimage32(k, t) radix_unimage32(k, t)\n&|' \
  "$class/runner_radix_h/05-radix-sort/radix_image.h"

# the identity: no image at all (it round-trips, and orders unsigned keys)
mk identity; cp "$X"/radix_image.h "$class/identity/05-radix-sort/"
sed -i 's|(void)key; (void)type; return 0;|(void)type; return key;|; s|(void)image; (void)type; return 0;|(void)type; return image;|' \
  "$class/identity/05-radix-sort/radix_image.h"
grep -q 'return key;' "$class/identity/05-radix-sort/radix_image.h"
rm -rf "$skel"
