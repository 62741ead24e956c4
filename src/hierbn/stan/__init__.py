"""Stan models (``*.stan``) and the backend runner (cmdstanpy or PyStan)."""
