#!/bin/sh
# sum.sh A B: prints A + B
echo $(( $1 - $2 ))
