"""schemarouter from Python: in-process routing and response projection over a compiled artifact.

Distribution ``schemarouter-rs`` (PyPI's ``schemarouter`` is another project); import name
``schemarouter_rs``. Every value is a plain dict or list in the shape of the CLI's JSON and of the
JSON Schemas under ``docs/schema/`` (``understanding.schema.json``, ``plan.schema.json``).
"""

from os import PathLike
from typing import Any, Dict, Iterable, List, Literal, Optional, Union

__version__: str

Projection = Literal["core", "recall", "minimal", "all"]
JSON = Any
Response = Union[Dict[str, Any], List[Any], str, bytes]

class SchemaRouterError(Exception):
    """Base class of every schemarouter error."""

    message: str
    """What is wrong (without the position)."""
    file: Optional[str]
    """The file (or input name, e.g. ``response 2``) it is about."""
    line: Optional[int]
    """1-based line, when known."""
    column: Optional[int]
    """1-based column (Unicode scalar values), when known."""

class LoadError(SchemaRouterError):
    """A file or project could not be read, or a compile could not write its output."""

class ArtifactError(SchemaRouterError):
    """A file is not a valid artifact (malformed, an older or newer format, or content hash mismatch)."""

class RouteError(SchemaRouterError):
    """Bad routing input: an invalid Understanding, projection or ``k``."""

class ExtractError(SchemaRouterError):
    """Projection could not run: a malformed plan or response, or responses that do not match the
    plan's steps."""

class CompileError(SchemaRouterError):
    """The project has errors; the position is the first error's."""

    diagnostics: List[Dict[str, Any]]
    """Every diagnostic, in the ``check`` dict shape."""

class Router:
    """A router over one compiled artifact. Immutable and thread-safe; routing and projection
    release the GIL."""

    @staticmethod
    def load(path: Union[str, PathLike[str]]) -> "Router":
        """Load and verify an artifact (``graph.json`` or ``graph.bin``); the prompt is read from
        ``intent_prompt.txt`` beside it (or rendered). Raises ``LoadError`` or ``ArtifactError``."""
    def route(
        self, question: str, *, k: int = 1, projection: Projection = "core"
    ) -> Dict[str, Any]:
        """Plan a question with the lexical Understand step and Algorithm 1; returns
        ``{"understanding": {...}, "plan": {...}}``. ``k`` (1 to 1000) is how many tools per
        requested source. Raises ``RouteError`` for a bad ``projection`` or ``k`` and for a
        question longer than 10,000 characters (as the CLI's ``route``)."""
    def search(self, query: str, *, k: int = 10) -> Dict[str, Any]:
        """Rank the endpoints for a question or keywords ("tool search"); returns
        ``{"query": ..., "hits": [...], "artifact_hash": ...}`` as ``schemarouter search --json``
        prints it (each hit: rank, tool, endpoint, score, method, url, call, matched). Raises
        ``RouteError`` for an empty query, one longer than 10,000 characters, or ``k`` outside 1
        to 1000."""
    def route_understanding(
        self, understanding: Dict[str, Any], *, k: int = 1, projection: Projection = "core"
    ) -> Dict[str, Any]:
        """Plan an Understanding dict (Understanding JSON Schema); returns the plan dict.
        Raises ``RouteError`` when the dict is not a valid Understanding (read as the CLI reads
        its JSON: a string where a list belongs is refused; at most 128 levels of nesting)."""
    def extract(
        self,
        plan: Union[Dict[str, Any], str],
        responses: Iterable[Response],
        *,
        count_tokens: bool = True,
    ) -> Dict[str, Any]:
        """Project one raw response per plan step (in step order) to the planned fields, with unit,
        conversion to the canonical unit, source type, licence and provenance. ``plan`` is a plan
        dict, what ``route`` returns, or its JSON text; a response is a dict or list (JSON values)
        or JSON or XML text. Returns ``{"steps": [...], "issues": [...], "context": str,
        "context_tokens": int}`` (``context_tokens`` left out with ``count_tokens=False``; JSON
        text is read keeping only what the step reaches; dicts and lists nest at most 128
        levels, as JSON text does). Raises ``ExtractError``."""
    @property
    def prompt(self) -> str:
        """The intent-registry prompt for the Understand step's model."""
    @property
    def intents(self) -> List[Dict[str, Any]]:
        """The intents: ``id``, ``description``, ``domains``, ``required_groups``, ``examples``."""
    @property
    def artifact_info(self) -> Dict[str, Any]:
        """``path``, ``project``, ``version``, ``format_version``, ``tool_version``,
        ``content_hash``, ``routing_fingerprint`` and the counts of ``tools``, ``endpoints``,
        ``fields``, ``concepts`` and ``intents``."""

def check(path: Union[str, PathLike[str]]) -> List[Dict[str, Any]]:
    """Lint a schema project; returns its diagnostics (``code``, ``name``, ``severity``,
    ``message``, ``location`` with ``file``/``line``/``column``, ``related``, ``help``). Raises
    ``LoadError`` when the project cannot be read."""

def compile(path: Union[str, PathLike[str]], out: Union[str, PathLike[str]]) -> Dict[str, Any]:
    """Check and compile a project into ``out`` (``graph.json``, ``intent_prompt.txt``; written
    atomically); returns a summary. Raises ``CompileError``, or ``LoadError`` when the project
    cannot be read (``file`` is the project) or ``out`` cannot be written (``file`` is ``out``;
    an empty ``out`` is refused)."""
