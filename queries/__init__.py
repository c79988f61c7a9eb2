"""Data package: ragprov's Jinja2 SPARQL templates, one per file, each with a YAML header."""
