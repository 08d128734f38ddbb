"""Decisions: the best play of a hand, computed exactly or by rollouts (issue 10)."""
