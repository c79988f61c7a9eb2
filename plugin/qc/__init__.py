"""Quality control of the ontology and of recorded traces: one module a question.

Four questions, four functions (and the plain-RDF form they read):

- :func:`run_checks` (``qc.checks``) — is the ontology documented and anchored? Runs the ROBOT-style SPARQL checks
  of ``ontology/checks/*.rq`` over the ontology with pyoxigraph; each returns one row per problem,
  with the severity ``ontology/checks/profile.tsv`` gives it.
- :func:`validate_trace` (``qc.shacl``) — is a recorded trace well-formed? Validates it against
  ``ontology/shapes.ttl`` with pyshacl (the ``ontology`` extra).
- :func:`check_consistency` (``qc.reasoner``) — is the ontology, with PROV-O and optionally a trace, logically
  consistent? Runs the HermiT reasoner through owlready2 (the ``ontology`` extra, and Java),
  entirely offline: ``owl:imports`` are resolved through ``catalog-v001.xml`` to vendored files.
- :func:`owl2_dl_violations` (``qc.profile``) — does the ontology stay in OWL 2 DL? Runs the OWL API's profile
  checker (shipped inside owlready2's HermiT jar) and returns what the ontology adds to the
  violations of its imports (PROV-O puns a few properties).

rdflib (hence pyshacl and owlready2) cannot read triple terms, so traces are validated and reasoned
over in their plain-RDF form, where a quoted triple is the ``rdf:Statement`` IRI of the
``reification`` dialect. :func:`plain_rdf` makes that form from any input: RDF 1.2 triple terms,
RDF-star ``<< >>`` reifiers, or data already in the reification form (``qc.plain``).

>>> [p for p in run_checks() if p.severity is Severity.ERROR]
[]
"""

from .checks import Check, Problem, Severity, list_checks, run_checks
from .plain import TraceData, plain_rdf
from .profile import owl2_dl_violations
from .reasoner import ConsistencyReport, check_consistency
from .shacl import ValidationReport, ValidationResult, validate_trace

__all__ = [
    "Check",
    "ConsistencyReport",
    "Problem",
    "Severity",
    "TraceData",
    "ValidationReport",
    "ValidationResult",
    "check_consistency",
    "list_checks",
    "owl2_dl_violations",
    "plain_rdf",
    "run_checks",
    "validate_trace",
]
