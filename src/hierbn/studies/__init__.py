"""Experiment protocols: configuration -> tidy result tables."""
