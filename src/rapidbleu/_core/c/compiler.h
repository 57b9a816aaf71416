/* Compiler attributes and builtins used by the C core, defined once. */
#ifndef RAPIDBLEU_COMPILER_H
#define RAPIDBLEU_COMPILER_H

#include <stdint.h>

/* `static RB_ALWAYS_INLINE`: inlined into every caller even where the compiler would not
 * (one copy per constant argument, e.g. a rule set or an equality function). */
#if defined(__GNUC__) || defined(__clang__)
#define RB_ALWAYS_INLINE inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#define RB_ALWAYS_INLINE __forceinline
#else
#define RB_ALWAYS_INLINE inline
#endif

/* `static RB_NOINLINE`: kept out of its callers (a rare path that would bloat a hot loop). */
#if defined(__GNUC__) || defined(__clang__)
#define RB_NOINLINE __attribute__((noinline))
#elif defined(_MSC_VER)
#define RB_NOINLINE __declspec(noinline)
#else
#define RB_NOINLINE
#endif

/* The number of set bits of x: the instruction where the build targets one (or where the
 * compiler's builtin is one on every machine of the architecture, as on 64-bit ARM); else the
 * portable count in line (x86-64's baseline has no popcount instruction, and the builtin would
 * be a call into the compiler's library). */
static inline int rb_popcount64(uint64_t x) {
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__POPCNT__) || defined(__aarch64__))
    return __builtin_popcountll(x);
#else
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (int)((x * 0x0101010101010101ull) >> 56);
#endif
}

/* The index of the lowest set bit of x (x != 0). */
static inline int rb_ctz64(uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(x);
#else
    int k = 0;
    while (!(x & 1)) {
        x >>= 1;
        k++;
    }
    return k;
#endif
}

#endif
