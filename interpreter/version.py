"""The version of regles: one place that the package, its fingerprint and its outputs read."""

__version__ = "0.1.0"
