# tests/t_common_layers.sh - the layers: chapters on top, common/ below.
#   common/'s arrows point one way: no file calls a function of another that
#   calls back into it, directly or round a loop;
#   common/ never includes a chapter's file (a chapter's lesson lives in it);
#   no mutable global is shared between common/'s files (what a file needs
#   about the run is passed to it);
#   step 0 includes and links no OpenCL;
#   common/ holds only C (.c, .h): scripts are scripts/, tools tools/.
# Each check is tried first on files made here that break it, so that it is
# known to find what it looks for.
#
# The loop check: The calls are read from the built objects (nm: the symbols
# each object defines, and those it leaves undefined for another to define),
# so an arrow counts only where code calls code, not where a header is
# merely included. A loop is named file by file, with the functions that
# make each arrow. The check is tried first on two objects made here that
# call each other, so that it is known to find a loop.
# chapters: none
source "$(dirname "$0")/lib.sh"

# calls OBJ...: one line "caller callee: symbol symbol..." per arrow between
# the objects (named by their path under common/, without .o)
calls() {
    local o
    for o in "$@"; do
        local name=${o#"$BUILD"/common/}
        name=${name#"$TMP"/}
        nm -g "$o" | awk -v o="${name%.o}" 'NF == 3 && $2 ~ /^[TDBRCGSV]$/ { print "D", o, $3 } $1 == "U" { print "U", o, $2 }'
    done | awk '$1 == "D" { def[$3] = $2; next }
        { u[++n] = $2; s[n] = $3 }
        END { for (i = 1; i <= n; i++) if ((s[i] in def) && def[s[i]] != u[i]) e[u[i] " " def[s[i]]] = e[u[i] " " def[s[i]]] " " s[i]
              for (k in e) print k ":" e[k] }' | sort
}
# loops: from the arrows on stdin, every loop "a -> b -> ... -> a (via: ...)",
# one line each (each loop once, from its first file in sorted order); nothing if none
loops() {
    awk -F': ' '{ split($1, ab, " "); a = ab[1]; b = ab[2]; out[a] = out[a] " " b; via[a, b] = $2; node[a]; node[b] }
        function walk(start, at, path, seen,    n, i, nx, lst) {
            n = split(out[at], lst, " ")
            for (i = 1; i <= n; i++) {
                nx = lst[i]
                if (nx == start) { found[path " -> " nx] = 1; continue }
                if (nx < start || index(seen, " " nx " ")) continue   # each loop once, from its smallest file
                walk(start, nx, path " -> " nx, seen nx " ")
            }
        }
        END { for (s in node) walk(s, s, s, " " s " ")
              for (p in found) {
                  n = split(p, q, " -> "); v = ""
                  for (i = 1; i < n; i++) v = v (i > 1 ? "; " : "") q[i] " -> " q[i + 1] ": " via[q[i], q[i + 1]]
                  print p "  (" v ")"
              } }' | sort
}

# ---- the check finds a loop: two objects that call each other ----
need_tool "layers: nm reads the objects" nm binutils || exit 0
cat >"$TMP/up.c" <<'EOF'
int down(int);
int up(int n) { return n > 0 ? down(n - 1) : 0; }
EOF
cat >"$TMP/down.c" <<'EOF'
int up(int);
int down(int n) { return n > 0 ? up(n - 1) : 1; }
EOF
cat >"$TMP/alone.c" <<'EOF'
int down(int);
int alone(void) { return down(3); }
EOF
for f in up down alone; do cc -c "$TMP/$f.c" -o "$TMP/$f.o" 2>>"$TMP/cc.err"; done
got=$(calls "$TMP/up.o" "$TMP/down.o" "$TMP/alone.o" | loops)
if [ "$got" = "down -> up -> down  (down -> up: up; up -> down: down)" ]; then
    pass "layers: the check names a loop of two objects that call each other, and the calls that make it"
else fail "layers: the check names a loop of two objects that call each other, and the calls that make it" "got '$got' $(head -c 200 "$TMP/cc.err")"; fi

# ---- common/: the objects of its sources (a stale object of a removed file is not read) ----
objs=() missing=""
for c in "$ROOT"/common/*.c "$ROOT"/common/formats/*.c; do
    o=$BUILD/common/${c#"$ROOT"/common/}
    o=${o%.c}.o
    if [ -f "$o" ]; then objs+=("$o"); else missing="$missing ${o#"$BUILD"/}"; fi
done
if [ -n "$missing" ]; then
    fail "layers: every file of common/ built" "no object:$missing (make all)"
else
    calls "${objs[@]}" >"$TMP/arrows"
    n=$(wc -l <"$TMP/arrows")
    got=$(loops <"$TMP/arrows")
    if [ "$n" -lt 20 ]; then fail "layers: common/'s calls read from its objects" "only $n arrows found"
    elif [ -z "$got" ]; then pass "layers: common/ has its arrows one way ($n arrows between its files, no loop)"
    else fail "layers: common/ has its arrows one way" "$(echo "$got" | tr '\n' '|')"; fi
fi

# ---- common/ includes no chapter ----
# chapter_includes DIR: every #include of DIR's .c and .h that names a chapter's
# folder (stepN-...) or a header that lives in one (any header not in DIR,
# DIR/formats or the system's): "file: line"
chapter_includes() {
    local dir=$1 f inc own
    own=$(cd "$dir" && find . -name '*.h' | sed 's|^\./||' | sort)
    find "$dir" -name '*.[ch]' | sort | while read -r f; do
        grep -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" | while read -r line; do
            inc=$(sed -E 's/.*"([^"]+)".*/\1/' <<<"$line")
            rel=$(cd "$(dirname "$f")" && realpath -m --relative-to="$dir" "$inc")
            # found beside the file or through -Icommon, else it is not the library's
            if [[ $inc == *step[0-9]* ]] || { ! grep -qxF -- "$rel" <<<"$own" && ! grep -qxF -- "$inc" <<<"$own"; }; then
                echo "${f#"$dir"/}: $line"
            fi
        done
    done
}
mkdir -p "$TMP/lib/formats"
printf '#include "a.h"\n#include "formats/r.h"\n#include <stdio.h>\n' >"$TMP/lib/a.c"
printf '#include "../a.h"\n#include "r.h"\n' >"$TMP/lib/formats/r.c"
: >"$TMP/lib/a.h"; : >"$TMP/lib/formats/r.h"
printf '#include "../step6-csr/choice/csrchoice.h"\n#include "cg.h"\n' >"$TMP/lib/b.c"
got=$(chapter_includes "$TMP/lib" | tr '\n' '|')
if [ "$got" = 'b.c: #include "../step6-csr/choice/csrchoice.h"|b.c: #include "cg.h"|' ]; then
    pass "layers: the include check names a chapter's header, by its path or by a name not in the library"
else fail "layers: the include check names a chapter's header, by its path or by a name not in the library" "got '$got'"; fi
got=$(chapter_includes "$ROOT/common")
if [ -z "$got" ]; then pass "layers: common/ includes no chapter's file"
else fail "layers: common/ includes no chapter's file" "$(echo "$got" | tr '\n' '|')"; fi

# ---- no mutable global shared between common/'s files ----
# shared_globals OBJ...: "definer user: symbol" for each writable variable
# one object defines and another uses. Writable: a global object in .data,
# .bss, their small and thread-local kinds, or common (objdump -t names the
# section); read-only data (.rodata, .data.rel.ro: a table of constant
# strings) may be shared.
shared_globals() {
    local o
    for o in "$@"; do
        local name=${o##*/}
        objdump -t "$o" | awk -v o="${name%.o}" '
            $2 == "g" && $3 == "O" && $4 ~ /^(\.(s?data|s?bss|tdata|tbss)(\..*)?|\*COM\*)$/ && $4 !~ /\.rel\.ro/ { print "D", o, $NF }
            $2 == "*UND*" || $3 == "*UND*" { print "U", o, $NF }'
    done | awk '$1 == "D" { def[$3] = $2; next } { u[++n] = $2; s[n] = $3 }
        END { for (i = 1; i <= n; i++) if ((s[i] in def) && def[s[i]] != u[i]) print def[s[i]], u[i] ": " s[i] }' | sort -u
}
cat >"$TMP/holder.c" <<'EOF2'
int run_count;
const char *const run_names[2] = { "a", "b" };
const int run_limit = 4;
int count(void) { return ++run_count; }
EOF2
cat >"$TMP/reader.c" <<'EOF2'
extern int run_count;
extern const int run_limit;
extern const char *const run_names[2];
int seen(void) { return run_count + run_limit + run_names[1][0]; }
EOF2
for f in holder reader; do cc -c "$TMP/$f.c" -o "$TMP/$f.o" 2>>"$TMP/cc.err"; done
got=$(shared_globals "$TMP/holder.o" "$TMP/reader.o")
if [ "$got" = "holder reader: run_count" ]; then
    pass "layers: the global check names a variable one object defines and another reads (and no constant)"
else fail "layers: the global check names a variable one object defines and another reads (and no constant)" "got '$got' $(head -c 200 "$TMP/cc.err")"; fi
if [ ${#objs[@]} -gt 0 ] && [ -z "$missing" ]; then
    got=$(shared_globals "${objs[@]}")
    if [ -z "$got" ]; then pass "layers: no mutable global shared between common/'s files (${#objs[@]} objects)"
    else fail "layers: no mutable global shared between common/'s files" "$(echo "$got" | tr '\n' '|')"; fi
fi

# ---- step 0: no OpenCL included or linked ----
# opencl_in BIN: what of OpenCL the program links (the library, cl* symbols)
opencl_in() {
    { ldd "$1" 2>/dev/null | awk '/libOpenCL/ { print "links", $1 }'
      nm "$1" 2>/dev/null | awk '$1 == "U" && $2 ~ /^cl[A-Z]/ { print "calls", $2 }'; } | paste -sd ' '
}
# opencl_headers SRC: the OpenCL headers SRC includes, through common/'s
opencl_headers() {
    ${CC:-cc} -std=c11 -D_POSIX_C_SOURCE=200809L -I"$ROOT/common" -fopenmp -MM -MG -MT x "$1" 2>&1 |
        tr ' \\' '\n\n' | grep -E 'CL/|clutil\.h|measure_cl\.h' | xargs -r -n1 basename | sort -u | paste -sd ' '
}
printf '#include "clutil.h"\nint main(void) { cl_uint n = 0; return (int)clGetPlatformIDs(0, NULL, &n); }\n' >"$TMP/cl.c"
if ${CC:-cc} -I"$ROOT/common" "$TMP/cl.c" -lOpenCL -o "$TMP/cl" 2>>"$TMP/cc.err"; then
    got="$(opencl_headers "$TMP/cl.c") | $(opencl_in "$TMP/cl")"
    if [[ $got == *clutil.h* && $got == *"links libOpenCL"* && $got == *"calls clGetPlatformIDs"* ]]; then
        pass "layers: the OpenCL check finds the header, the library and the calls of a program that uses OpenCL"
    else fail "layers: the OpenCL check finds the header, the library and the calls of a program that uses OpenCL" "got '$got'"; fi
else fail "layers: the OpenCL check finds the header, the library and the calls of a program that uses OpenCL" "cannot build one: $(head -c 200 "$TMP/cc.err")"; fi
got=$(opencl_headers "$ROOT/step0-c-reference/main.c")
if [ -z "$got" ]; then pass "layers: step 0 includes no OpenCL header"
else fail "layers: step 0 includes no OpenCL header" "it includes $got"; fi
if [ ! -x "$BUILD/step0" ]; then fail "layers: step 0 links no OpenCL" "no $BUILD/step0 (make all)"
else
    got=$(opencl_in "$BUILD/step0")
    if [ -z "$got" ]; then pass "layers: step 0 links no OpenCL (no libOpenCL, no cl* call)"
    else fail "layers: step 0 links no OpenCL (no libOpenCL, no cl* call)" "$got"; fi
fi

# ---- common/ holds only C ----
# not_c DIR: the files under DIR that are not .c or .h (tracked by git where
# there is a clone: a build's leftovers are not the library's)
not_c() {
    if git -C "$1" rev-parse --git-dir >/dev/null 2>&1; then git -C "$1" ls-files . ; else (cd "$1" && find . -type f | sed 's|^\./||'); fi |
        grep -vE '\.[ch]$' | paste -sd ' '
}
mkdir -p "$TMP/lib/tools"; : >"$TMP/lib/run.sh"; : >"$TMP/lib/tools/x.c"
got=$(not_c "$TMP/lib")
if [ "$got" = "run.sh" ]; then pass "layers: the C-only check names a script among C files"
else fail "layers: the C-only check names a script among C files" "got '$got'"; fi
got=$(not_c "$ROOT/common")
if [ -z "$got" ]; then pass "layers: common/ holds only .c and .h"
else fail "layers: common/ holds only .c and .h" "$got"; fi
