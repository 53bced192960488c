"""JVP rules of the indexing and ordering primitives: gather, scatter, cumulative scans, sort, top_k (being written)."""
