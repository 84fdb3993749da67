#!/bin/sh
# prints the greeting the check expects (it has a bug the replayed agent fixes in a copy)
echo "Hello world"
