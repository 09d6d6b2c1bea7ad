# tests/t_layers.sh - the arrows between the files of common/ point one way:
# no file calls a function of another that calls back into it, directly or
# round a loop. The calls are read from the built objects (nm: the symbols
# each object defines, and those it leaves undefined for another to define),
# so an arrow counts only where code calls code, not where a header is
# merely included. A loop is named file by file, with the functions that
# make each arrow. The check is tried first on two objects made here that
# call each other, so that it is known to find a loop.
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
