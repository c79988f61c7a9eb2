"""Prompts as package data: ``prompts/*.md`` files with a header (id, version, inputs).

A prompt file starts with ``# key: value`` header lines (YAML once the ``# `` is stripped) naming
its ``id``, ``version``, ``inputs`` and a ``summary``, then one or more message sections opened by a
line ``=== system`` / ``=== user`` / ``=== assistant``. Placeholders are ``{{name}}``; a prompt's
placeholders must be exactly its declared inputs, and rendering needs every input. The trace
records a prompt as ``id@version`` (:attr:`Prompt.ref`); :attr:`Prompt.sha` pins the exact text.

>>> p = load_prompt("graphrag-concepts")
>>> p.ref
'graphrag-concepts@1'
>>> msgs = p.messages(question="Who is Scrooge?")
>>> [m["role"] for m in msgs]
['system', 'user']
>>> "Who is Scrooge?" in msgs[-1]["content"]
True
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import re
from pathlib import Path

from ..errors import ConfigurationError, NotFoundError, ParameterError

__all__ = ["Prompt", "load_prompt", "prompt_ids", "prompts_dir"]

_PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")
_SECTION = re.compile(r"^=== (system|user|assistant)\s*$")


def prompts_dir() -> Path:
    """The folder of the bundled prompt files."""
    return Path(__file__).parent / "prompts"  # the folder importlib.resources.files("ragprov.llm") names


@dataclasses.dataclass(frozen=True)
class Prompt:
    """One prompt: header fields and the message templates, in order."""

    id: str
    version: str
    inputs: tuple[str, ...]
    summary: str
    sections: tuple[tuple[str, str], ...]
    sha: str

    @property
    def ref(self) -> str:
        """How a trace names this prompt: ``id@version``."""
        return f"{self.id}@{self.version}"

    def messages(self, **values: object) -> list[dict[str, str]]:
        """The chat messages with ``values`` put in place of the placeholders."""
        missing = [name for name in self.inputs if name not in values]
        extra = sorted(set(values) - set(self.inputs))
        if missing or extra:
            raise ParameterError(
                f"prompt {self.ref} takes inputs {', '.join(self.inputs)}"
                + (f"; missing {', '.join(missing)}" if missing else "")
                + (f"; unknown {', '.join(extra)}" if extra else "")
            )
        text = {k: str(v) for k, v in values.items()}
        return [
            {"role": role, "content": _PLACEHOLDER.sub(lambda m: text[m.group(1)], body)}
            for role, body in self.sections
        ]


def parse_prompt(source: str, *, origin: str = "<prompt>") -> Prompt:
    """Parse a prompt file's text (see the module docstring)."""
    lines = source.splitlines()
    head: list[str] = []
    n = 0
    while n < len(lines) and lines[n].startswith("#"):
        head.append(lines[n][2:] if lines[n].startswith("# ") else lines[n][1:])
        n += 1
    try:
        import yaml

        header = yaml.safe_load("\n".join(head)) or {}
    except yaml.YAMLError as e:
        raise ConfigurationError(f"{origin}: the prompt header is not YAML: {e}") from None
    for key in ("id", "version", "inputs", "summary"):
        if key not in header:
            raise ConfigurationError(f"{origin}: the prompt header has no '{key}'")
    inputs = tuple(str(i) for i in (header["inputs"] or []))
    sections: list[tuple[str, list[str]]] = []
    for line in lines[n:]:
        m = _SECTION.match(line)
        if m:
            sections.append((m.group(1), []))
        elif sections:
            sections[-1][1].append(line)
        elif line.strip():
            raise ConfigurationError(f"{origin}: text before the first '=== system|user' section")
    if not sections:
        raise ConfigurationError(f"{origin}: the prompt has no '=== user' section")
    bodies = tuple((role, "\n".join(body).strip("\n")) for role, body in sections)
    used = {m.group(1) for _, body in bodies for m in _PLACEHOLDER.finditer(body)}
    if used != set(inputs):
        raise ConfigurationError(
            f"{origin}: placeholders {sorted(used)} differ from the declared inputs {sorted(inputs)}"
        )
    return Prompt(
        id=str(header["id"]),
        version=str(header["version"]),
        inputs=inputs,
        summary=str(header["summary"]),
        sections=bodies,
        sha=hashlib.sha256(source.encode("utf-8")).hexdigest()[:16],
    )


def prompt_ids() -> list[str]:
    """The ids of the bundled prompts."""
    return sorted(p.name.rsplit(".", 1)[0] for p in prompts_dir().glob("*.md"))


@functools.cache
def load_prompt(prompt_id: str) -> Prompt:
    """The bundled prompt ``prompt_id`` (its file is ``prompts/<id>.md``)."""
    path = prompts_dir() / f"{prompt_id}.md"
    if not path.is_file():
        raise NotFoundError(f"no prompt {prompt_id!r}; bundled prompts: {', '.join(prompt_ids())}")
    prompt = parse_prompt(path.read_text(encoding="utf-8"), origin=str(path))
    if prompt.id != prompt_id:
        raise ConfigurationError(f"{path}: the header id {prompt.id!r} differs from the file name")
    return prompt
