"""Data package: the ragprov ontology (Turtle), SHACL shapes, QC checks and Protégé catalog."""
