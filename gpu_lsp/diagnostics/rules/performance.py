"""GPU3xx: performance and style."""
