"""Loaders: documents, knowledge triples and Microsoft GraphRAG index output into a ragprov store."""
