#!/bin/sh
# passes when sum.sh adds
out=$(sh "$(dirname "$0")/sum.sh" 2 3)
if [ "$out" = "5" ]; then echo "check passed"; else echo "sum.sh 2 3 printed $out, expected 5"; exit 1; fi
