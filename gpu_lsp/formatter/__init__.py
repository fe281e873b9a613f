"""The `.mlir` formatter: ops printed as mlir-opt prints them, the file's comments, names and layout kept."""
