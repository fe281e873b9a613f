"""`python -m gpu_lsp`: the language server over stdio."""

from __future__ import annotations


def main() -> None:
    from gpu_lsp.lsp.bootstrap import main as serve

    serve()


if __name__ == "__main__":
    main()
