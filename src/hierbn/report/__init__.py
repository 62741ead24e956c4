"""Shared report pieces: the claims table, figure saving, notebook loading and display, the
study wall time from benchmark files, and the scoreboard page. Study-specific figures live in
``hierbn.studies.<study>.report``."""
