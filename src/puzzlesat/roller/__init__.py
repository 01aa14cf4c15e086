"""Placeholder: the roller family is being written (see the issue tracker)."""
