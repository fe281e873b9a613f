"""Static GPU sanitizer: kernel summaries, host-side hazards and the async dependency graph."""
