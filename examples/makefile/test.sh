#!/bin/sh
# The project's test: the built app greets whoever it is given.
set -e
out=$(sh "$APP" ccode)
[ "$out" = "hello, ccode" ] || { echo "expected 'hello, ccode', got '$out'"; exit 1; }
echo "ok: $out"
