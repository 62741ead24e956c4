"""Figure and table builders used by the report notebooks (they read results, never fit)."""
