/* Compiler attributes used by the C core, defined once. */
#ifndef RAPIDBLEU_COMPILER_H
#define RAPIDBLEU_COMPILER_H

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

#endif
