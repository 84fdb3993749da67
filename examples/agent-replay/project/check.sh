#!/bin/sh
# passes when greet.sh (next to this file) prints exactly "Hello, world!"
out=$(sh "$(dirname "$0")/greet.sh")
if [ "$out" = "Hello, world!" ]; then echo "check passed"; else echo "expected 'Hello, world!', got '$out'"; exit 1; fi
