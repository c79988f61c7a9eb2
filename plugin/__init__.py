"""ragprov: auditable graph-RAG answers as W3C PROV-O provenance in any RDF store."""

__version__ = "0.1.0"
