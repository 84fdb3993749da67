#!/bin/sh
greet() { echo "hello, ${1:-world}"; }
