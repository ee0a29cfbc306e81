"""Lint rules and duplicate finding."""
