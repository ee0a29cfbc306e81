"""papers: a curated catalog of recommendation-system and ML-systems papers."""

__version__ = "0.1.0"
