"""OWL 2 DL: the OWL API's profile checker (inside owlready2's HermiT jar), reporting what the
ontology adds to the violations of its imports."""


from __future__ import annotations

import shutil
from pathlib import Path
from typing import TYPE_CHECKING

from pyoxigraph import (
    RdfFormat,
    parse,
)

from ..errors import ConfigurationError, RagprovError

if TYPE_CHECKING:  # pragma: no cover
    pass
from ._common import _OWL_IMPORTS, _ntriples, _ontology_dir, _require
from .reasoner import _java_error, _resolve_imports

_DL_CHECKER = r"""
import org.semanticweb.owlapi.apibinding.OWLManager;
import org.semanticweb.owlapi.model.*;
import org.semanticweb.owlapi.profiles.*;
public class RagprovDlProfile {
  public static void main(String[] args) throws Exception {
    for (int i = 0; i < args.length; i++) {
      OWLOntologyManager m = OWLManager.createOWLOntologyManager();
      OWLOntology o = m.loadOntologyFromOntologyDocument(new java.io.File(args[i]));
      for (OWLProfileViolation v : new OWL2DLProfile().checkOntology(o).getViolations()) {
        String what = v.getClass().getSimpleName() + ": " + v.getAxiom();
        System.out.println(i + "\t" + what.replace('\n', ' '));
      }
    }
  }
}
"""


def owl2_dl_violations(ontology_path: Path | str | None = None) -> list[str]:
    """The OWL 2 DL profile violations of the ontology merged with its imports, minus those the
    imports have on their own. An empty list means the ontology adds no violation of its own.

    Uses the OWL API bundled in owlready2's HermiT jar (a Java 11+ runtime runs the checker from
    source; nothing is downloaded).
    """
    import subprocess
    import tempfile

    owlready2 = _require("owlready2")
    java = getattr(owlready2, "JAVA_EXE", "java")
    jar = Path(owlready2.__file__).parent / "hermit" / "HermiT.jar"
    if not (shutil.which(java) or Path(java).is_file()) or not jar.is_file():
        raise ConfigurationError(f"the OWL 2 DL check needs Java and {jar}: install a Java runtime (11 or later)")
    path = Path(ontology_path) if ontology_path else _ontology_dir() / "ragprov.ttl"
    own = [t for t in parse(path=str(path), format=RdfFormat.TURTLE) if t.predicate != _OWL_IMPORTS]
    imports = [t for f in _resolve_imports(path).values() for t in parse(path=str(f), format=RdfFormat.TURTLE)]
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "RagprovDlProfile.java"
        source.write_text(_DL_CHECKER, encoding="utf-8")
        merged, alone = Path(tmp) / "merged.nt", Path(tmp) / "imports.nt"
        merged.write_bytes(_ntriples([*own, *imports]))
        alone.write_bytes(_ntriples(imports))
        run = subprocess.run([java, "-cp", str(jar), str(source), str(merged), str(alone)],
                             capture_output=True, text=True, timeout=300)
    if run.returncode != 0:
        raise RagprovError(f"the OWL 2 DL check failed: {_java_error(Exception(run.stderr))}")
    found: dict[str, set[str]] = {"0": set(), "1": set()}
    for line in run.stdout.splitlines():
        which, _, what = line.partition("\t")
        found.setdefault(which, set()).add(what)
    return sorted(found["0"] - found["1"])
