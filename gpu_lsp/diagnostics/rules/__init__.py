"""Every rule module; importing this package registers all codes."""

from gpu_lsp.diagnostics.rules import (  # noqa: F401  (imported to register the rules)
    async_tokens,
    meta,
    performance,
    sanitize_barrier,
    sanitize_launch,
    sanitize_lifetime,
    sanitize_placement,
    sanitize_race,
    sanitize_uninit,
    syntax,
    verify_attributes,
    verify_func,
    verify_ir,
    verify_launch,
    verify_ops,
    verify_std,
    verify_traits,
    verify_types,
    verify_vector,
    versions,
)
