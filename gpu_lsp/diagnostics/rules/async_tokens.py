"""GPU2xx: async tokens and lowering readiness."""
