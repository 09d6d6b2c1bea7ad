#!/usr/bin/env bash
# step6-csr/answers/variant.sh DIR PATCH... - build/step6 as a patch makes it:
# step6-csr/ copied to DIR/step6-csr, each PATCH applied there (patch -p1),
# and DIR/step6 built from the copy with the Makefile's flags and the
# course's $BUILD/libspmv.a (make all first). The copy's kernels are the ones
# DIR/step6 reads at run time, so a patch may change them too. Run from the
# repository root; exit 2 when a patch does not apply or the build fails.
set -u
if [ $# -lt 1 ]; then echo "usage: step6-csr/answers/variant.sh DIR PATCH..." >&2; exit 2; fi
dir=$1; shift
BUILD=${BUILD:-build}
rm -rf "$dir/step6-csr" && mkdir -p "$dir" && cp -r step6-csr "$dir/" || exit 2
for p in "$@"; do   # patch(1), or git apply where there is no patch
    if command -v patch >/dev/null; then patch -s -f -p1 -d "$dir" <"$p" >/dev/null 2>&1
    else (cd "$dir" && git apply -p1 - 2>/dev/null) <"$p"; fi || { echo "variant: $p does not apply to step6-csr/" >&2; exit 2; }
done
# the Makefile's own flags (single quotes: $(...) is make's, not the shell's)
# shellcheck disable=SC2016
flags=$(make -s --no-print-directory --eval 'variant-flags: ; @echo "$(CFLAGS)"' variant-flags)
# shellcheck disable=SC2016
libs=$(make -s --no-print-directory --eval 'variant-libs: ; @echo "$(LDFLAGS) $(LDLIBS)"' variant-libs)
d=$(cd "$dir" && pwd)/step6-csr
# shellcheck disable=SC2086
${CC:-gcc} $flags -DSPMV_KERNEL_PATH="\"$d/kernel.cl\"" -DSPMV_STEP_DIR="\"$d\"" "$d/main.c" "$d"/*/*.c \
    "$BUILD/libspmv.a" $libs -o "$dir/step6" || { echo "variant: the build of $dir/step6 failed" >&2; exit 2; }
echo "variant: $dir/step6 built from step6-csr/ with $*"
