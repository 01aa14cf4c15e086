"""Placeholder: the swap family is being written (see the issue tracker)."""
