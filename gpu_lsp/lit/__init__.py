"""lit tests in the editor: RUN lines, per-chunk FileCheck results, regenerated CHECK lines."""
