greet "$@"
