/* parse.c - sizes on the command line ("2^24", "1<<20", "16M") and back; name lists ("a,b"). */
#include "kit.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse_u64(const char **p, unsigned long long *v)
{
    char *end;
    if (!isdigit((unsigned char)**p)) return 0;
    errno = 0;
    *v = strtoull(*p, &end, 10);
    if (errno) return 0;
    *p = end;
    return 1;
}

int kit_parse_size(const char *s, size_t *n, char *msg, size_t len)
{
    const char *p = s;
    unsigned long long a = 0, b = 0, v;
    if (!s || !parse_u64(&p, &a)) goto bad;
    if (p[0] == '^' || (p[0] == '<' && p[1] == '<')) {
        int pow2 = p[0] == '^';
        p += pow2 ? 1 : 2;
        if (!parse_u64(&p, &b) || b > 62) goto bad;
        if (pow2) {
            if (a != 2) goto bad;
            v = 1ull << b;
        } else {
            if (a > (~0ull >> b)) goto bad;
            v = a << b;
        }
        if (*p == '+' || *p == '-') { /* 2^20+7 */
            int plus = *p == '+';
            unsigned long long c;
            p++;
            if (!parse_u64(&p, &c) || (!plus && c > v) || (plus && c > ~0ull - v)) goto bad;
            v = plus ? v + c : v - c;
        }
    } else {
        int sh = 0;
        v = a;
        if (*p == 'k' || *p == 'K') sh = 10;
        else if (*p == 'M') sh = 20;
        else if (*p == 'G') sh = 30;
        if (sh) {
            if (v > (~0ull >> sh)) goto bad; /* would wrap */
            v <<= sh;
            p++;
        }
    }
    if (*p || v > (unsigned long long)SIZE_MAX) goto bad;
    *n = (size_t)v;
    return 1;
bad:
    if (msg && len)
        snprintf(msg, len, "bad size '%s' (use e.g. 1000, 2^24, 2^20+7, 1<<20, 16M; it must fit in 64 bits)",
                 s ? s : "");
    return 0;
}

const char *kit_size_str(size_t n, char *buf, size_t len)
{
    int k;
    for (k = 0; k < 63; k++) {
        size_t p = (size_t)1 << k;
        if (n == p) { snprintf(buf, len, "2^%d", k); return buf; }
        if (k >= 10 && n > p && n - p < 64) { snprintf(buf, len, "2^%d+%zu", k, n - p); return buf; }
    }
    snprintf(buf, len, "%zu", n);
    return buf;
}

int kit_name_in_list(const char *list, const char *name)
{
    const size_t n = strlen(name);
    const char *p = list;
    if (!list) return 1;
    while ((p = strstr(p, name)) != NULL) {
        if ((p == list || p[-1] == ',') && (p[n] == ',' || p[n] == '\0')) return 1;
        p += n;
    }
    return 0;
}
