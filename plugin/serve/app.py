"""The HTTP API and the explorer page: one Starlette application over one shared store.

Reads run in Starlette's thread pool in parallel; each ``POST /ask`` runs its pipeline in a worker
thread of its own pool and streams the pipeline's events to the client as server-sent events through
an asyncio queue. Every store access goes through :class:`~ragprov.serve.locking.SharedStore`:
readers in parallel, one writer. The OpenAPI description is built from the endpoints' docstrings
(the YAML after ``---``) and served at ``/openapi.json``.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import dataclasses
import datetime as _dt
import hmac
import json
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from pyoxigraph import NamedNode
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.schemas import SchemaGenerator
from starlette.staticfiles import StaticFiles

from .. import __version__
from ..clock import parse_time
from ..errors import ConfigurationError, InvalidValueError, RagprovError
from ..navigate import TRACE_KINDS, Navigator
from ..pipelines import PIPELINES, pipeline
from ..record import ChunkEvent, EndOfSession, ExplainEvent, Recorder, event_to_json
from . import views
from .locking import SharedStore
from .problems import MEDIA_TYPE, problem, problem_of

__all__ = ["STATIC_DIR", "ServeConfig", "create_app"]

log = logging.getLogger("ragprov.serve")
STATIC_DIR = Path(__file__).parent / "static"


@dataclasses.dataclass(frozen=True)
class ServeConfig:
    """How the server answers: the bearer token writes need (None: open), limits, the LLM engine."""

    token: str | None = None
    max_question: int = 2000
    max_body: int = 64 * 1024
    max_page: int = 500
    workers: int = 4
    engine: Any = None
    facts_graph: NamedNode | None = None


def _problem_response(status: int, body: dict, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse(body, status_code=status, media_type=MEDIA_TYPE, headers=headers)


def _event_name(event: Any) -> str:
    for cls, name in ((ExplainEvent, "explain"), (ChunkEvent, "chunk"), (EndOfSession, "end_of_session")):
        if isinstance(event, cls):
            return name
    return str(getattr(event, "type", "event"))


class Api:
    """The endpoints, bound to one store and one configuration."""

    def __init__(self, store, config: ServeConfig):
        self.store = SharedStore(store)
        self.config = config
        self.recorder = Recorder(self.store)
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=config.workers, thread_name_prefix="ragprov-ask")
        self._readers: dict[str, Any] = {}

    # -- helpers --------------------------------------------------------------------------------
    def _authorize(self, request: Request) -> None:
        token = self.config.token
        if token is None:
            return
        header = request.headers.get("authorization", "")
        scheme, _, given = header.partition(" ")
        if scheme.lower() != "bearer" or not hmac.compare_digest(given.strip().encode(), token.encode()):
            raise HTTPException(401, "this server needs a bearer token for writes: send `Authorization: Bearer <token>`",
                                headers={"WWW-Authenticate": 'Bearer realm="ragprov"'})

    @staticmethod
    def _int(request: Request, name: str, default: int, low: int, high: int) -> int:
        raw = request.query_params.get(name)
        if raw is None or raw == "":
            return default
        try:
            value = int(raw)
        except ValueError:
            raise InvalidValueError(f"{name} must be a whole number, got {raw!r}") from None
        if not low <= value <= high:
            raise InvalidValueError(f"{name} must be between {low} and {high}, got {value}")
        return value

    @staticmethod
    def _required(request: Request, name: str) -> str:
        value = request.query_params.get(name, "").strip()
        if not value:
            raise InvalidValueError(f"the query parameter {name!r} is required")
        return value

    # -- reads ----------------------------------------------------------------------------------
    def health(self, request: Request) -> JSONResponse:
        """Is the server up and its store answering
        ---
        summary: Health check
        responses:
          200: {description: 'status, version, store dialect, whether writes need a token'}
          503: {description: the store does not answer}
        """
        self.store.ask("ASK { ?s ?p ?o }")
        return JSONResponse({"status": "ok", "version": __version__, "dialect": self.store.dialect.value,
                             "writes_need_token": self.config.token is not None, "modes": list(PIPELINES)})

    def list_traces(self, request: Request) -> JSONResponse:
        """Top-level traces, newest first
        ---
        summary: List traces
        parameters:
          - {name: kind, in: query, schema: {type: string, enum: [graph-rag, doc-rag, agent, local, global, drift, basic]}}
          - {name: since, in: query, description: ISO 8601 date or date-time, schema: {type: string}}
          - {name: q, in: query, description: only traces whose question contains this text (any case), schema: {type: string}}
          - {name: limit, in: query, schema: {type: integer, minimum: 1, maximum: 500, default: 50}}
          - {name: offset, in: query, schema: {type: integer, minimum: 0, default: 0}}
        responses:
          200: {description: '{traces: [{question, kind, query, started, ended, model, status}], next: URL of the next page or null}'}
          422: {description: a bad kind, date or number (problem details)}
        """
        params = request.query_params
        kind = params.get("kind") or None
        if kind is not None and kind not in TRACE_KINDS:
            raise InvalidValueError(f"unknown trace kind {kind!r}: use one of {', '.join(TRACE_KINDS)}")
        since = _parse_time(params["since"]) if params.get("since") else None
        limit = self._int(request, "limit", 50, 1, self.config.max_page)
        offset = self._int(request, "offset", 0, 0, 1_000_000)
        text = (params.get("q") or "").strip().casefold()
        fetch = offset + limit + 1 if not text else 100_000
        rows = Navigator(self.store).list_traces(kind=kind, since=since, limit=fetch)
        if text:
            rows = [r for r in rows if text in r.query.casefold()]
        page = rows[offset : offset + limit]
        next_url = None
        if len(rows) > offset + limit:
            next_url = str(request.url.include_query_params(offset=offset + limit, limit=limit))
        return JSONResponse({
            "traces": [{**r.to_dict(), "status": "complete" if r.complete else "incomplete"} for r in page],
            "next": next_url,
        })

    def show_trace(self, request: Request) -> JSONResponse:
        """One trace with its stages, readable edges, candidates not kept, citations and edge lineage
        ---
        summary: Show a trace
        parameters:
          - {name: ref, in: path, required: true, description: a question IRI or its session id, schema: {type: string}}
        responses:
          200: {description: 'the trace as `ragprov trace show --format json`, plus labels, lineage and citations'}
          404: {description: no such trace (problem details)}
        """
        return JSONResponse(views.trace_view(self.store, request.path_params["ref"], facts_graph=self.config.facts_graph))

    def show_stage(self, request: Request) -> JSONResponse:
        """The n-th stage of a trace (from 1)
        ---
        summary: Show one stage
        parameters:
          - {name: ref, in: path, required: true, schema: {type: string}}
          - {name: n, in: path, required: true, schema: {type: integer, minimum: 1}}
        responses:
          200: {description: the stage with its selections}
          404: {description: no such trace or stage}
        """
        return JSONResponse(views.stage_view(self.store, request.path_params["ref"], request.path_params["n"],
                                             facts_graph=self.config.facts_graph))

    def edge_lineage(self, request: Request) -> JSONResponse:
        """An edge down to its documents, with each chunk's text and its supporting sentence
        ---
        summary: Lineage of an edge
        parameters:
          - name: edge
            in: query
            required: true
            description: 'the edge in N-Triples form: <s> <p> <o> or <s> <p> "literal"'
            schema: {type: string}
        responses:
          200: {description: '{edge, chains: [{statement, chain, chunk, document, text, highlight: [start, end]}]}'}
          422: {description: not an edge}
        """
        return JSONResponse(views.edge_lineage(self.store, self._required(request, "edge"), facts_graph=self.config.facts_graph))

    def node_lineage(self, request: Request) -> JSONResponse:
        """A chunk (or any node of the source graph) down to its document, with its text
        ---
        summary: Lineage of a chunk
        parameters:
          - {name: node, in: query, required: true, description: the chunk or text unit IRI, schema: {type: string}}
          - {name: terms, in: query, description: words to find the supporting sentence by (e.g. the question), schema: {type: string}}
        responses:
          200: {description: '{node, chain, chunk, document, text, highlight}'}
          404: {description: no such node}
        """
        terms = [request.query_params.get("terms", "")]
        return JSONResponse(views.node_lineage(self.store, self._required(request, "node"), terms=terms))

    def document_lineage(self, request: Request) -> JSONResponse:
        """A document and every recorded answer that rested on it, newest first
        ---
        summary: Answers resting on a document
        parameters:
          - {name: document, in: query, required: true, description: the document IRI, schema: {type: string}}
        responses:
          200: {description: '{document, answers: [{question, query, started, answers, edges, chunks}]}'}
          404: {description: no such document}
        """
        return JSONResponse(views.document_view(self.store, self._required(request, "document")))

    # -- writes ---------------------------------------------------------------------------------
    def delete_trace(self, request: Request) -> JSONResponse:
        """Delete a trace with its sub-traces and content (needs the bearer token when one is set)
        ---
        summary: Delete a trace
        parameters:
          - {name: ref, in: path, required: true, schema: {type: string}}
        responses:
          200: {description: '{deleted: question IRI}'}
          401: {description: missing or wrong bearer token}
          404: {description: no such trace}
        """
        self._authorize(request)
        nav = Navigator(self.store)
        question = nav.resolve(request.path_params["ref"])
        nav.delete(question)
        return JSONResponse({"deleted": question.value})

    async def ask(self, request: Request) -> Response:
        """Answer a question and stream its events as they are recorded (needs the bearer token when one is set)
        ---
        summary: Ask a question
        requestBody:
          required: true
          content:
            application/json:
              schema:
                type: object
                required: [mode, question]
                properties:
                  mode: {type: string, enum: [graph-rag, doc-rag, agent, local, global, drift, basic]}
                  question: {type: string, minLength: 1, maxLength: 2000}
                  options: {type: object, description: "the mode's parameters (e.g. triple_limit for graph-rag)"}
        responses:
          200:
            description: >-
              server-sent events: `event: explain | chunk | end_of_session | error`,
              `data:` one event in the JSON wire form of ragprov.event_to_json
            content: {text/event-stream: {}}
          401: {description: missing or wrong bearer token}
          413: {description: request body too large}
          422: {description: bad mode, question or options}
        """
        self._authorize(request)
        size = request.headers.get("content-length")
        if size is not None and size.isdigit() and int(size) > self.config.max_body:
            raise HTTPException(413, f"the request body is {size} bytes; at most {self.config.max_body} are accepted")
        body = await request.body()
        if len(body) > self.config.max_body:
            raise HTTPException(413, f"the request body is {len(body)} bytes; at most {self.config.max_body} are accepted")
        pipe, question = await asyncio.to_thread(self._pipeline_for, body)
        return StreamingResponse(self._stream(pipe, question), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    def _pipeline_for(self, body: bytes):
        try:
            data = json.loads(body or b"null")
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise InvalidValueError(f"the request body is not JSON: {e}") from None
        if not isinstance(data, dict):
            raise InvalidValueError('send a JSON object: {"mode": "graph-rag", "question": "…", "options": {}}')
        unknown = set(data) - {"mode", "question", "options"}
        if unknown:
            raise InvalidValueError(f"unknown field(s) {', '.join(sorted(unknown))}: send mode, question and options")
        mode, question, options = data.get("mode"), data.get("question"), data.get("options")
        options = {} if options is None else options
        if mode not in PIPELINES:
            raise InvalidValueError(f"unknown mode {mode!r}: use one of {', '.join(PIPELINES)}")
        if not isinstance(question, str) or not question.strip():
            raise InvalidValueError("the question is empty: send a non-empty string")
        question = question.strip()
        if len(question) > self.config.max_question:
            raise InvalidValueError(f"the question is {len(question)} characters long; at most {self.config.max_question} are accepted")
        if not isinstance(options, dict):
            raise InvalidValueError("options must be a JSON object of the mode's parameters")
        return self._build(mode, options), question

    def _build(self, mode: str, options: dict[str, Any]):
        pipe = pipeline(mode, self.store, engine=self.config.engine, recorder=self.recorder, facts_graph=self.config.facts_graph)
        reader = self._readers.setdefault(mode, pipe.reader)  # one reader per mode: its indexes are built once
        pipe = type(pipe)(self.store, engine=self.config.engine, recorder=self.recorder, reader=reader,
                          params=self._params(type(pipe), mode, options))
        return pipe

    @staticmethod
    def _params(cls, mode: str, options: dict[str, Any]):
        params_type = getattr(cls, "params_type", None)
        if not options:
            return None
        if params_type is None:
            raise InvalidValueError(f"mode {mode} takes no options")
        known = {f.name for f in dataclasses.fields(params_type)}
        unknown = set(options) - known
        if unknown:
            raise InvalidValueError(f"unknown option(s) for {mode}: {', '.join(sorted(unknown))}; known: {', '.join(sorted(known))}")
        try:
            return params_type(**options)
        except (TypeError, ValueError) as e:
            raise ConfigurationError(f"bad options for {mode}: {e}") from None

    async def _stream(self, pipe, question: str) -> AsyncIterator[str]:
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue = asyncio.Queue()

        def put(item) -> None:
            with contextlib.suppress(RuntimeError):  # the loop is gone: the client left, the run goes on
                loop.call_soon_threadsafe(queue.put_nowait, item)

        def work() -> None:
            try:
                for event in pipe.run(question):
                    put((_event_name(event), event_to_json(event)))
            except Exception as e:  # reported to the client as an `error` event, never a traceback
                if not isinstance(e, RagprovError):
                    log.exception("ask failed")
                put(("error", json.dumps(problem_of(e)[1], ensure_ascii=False)))
            finally:
                put(None)

        self.pool.submit(work)
        n = 0
        while True:
            item = await queue.get()
            if item is None:
                return
            name, data = item
            yield f"id: {n}\nevent: {name}\ndata: {data}\n\n"
            n += 1

    # -- the page -------------------------------------------------------------------------------
    async def index(self, request: Request) -> FileResponse:
        return FileResponse(STATIC_DIR / "index.html", headers={"Cache-Control": "no-cache"})

    def openapi(self, request: Request) -> JSONResponse:
        generator = SchemaGenerator({
            "openapi": "3.1.0",
            "info": {"title": "ragprov", "version": __version__,
                     "description": "Ask questions with live provenance events; browse traces and their lineage."},
            "components": {"securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}}},
        })
        return JSONResponse(generator.get_schema(routes=request.app.routes))


def _parse_time(value: str) -> _dt.datetime:
    return parse_time(value, what="since")


async def _ragprov_error(request: Request, exc: Exception) -> JSONResponse:
    status, body = problem_of(exc)
    return _problem_response(status, {**body, "instance": request.url.path})


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    titles = {401: "Unauthorized", 404: "Not found", 405: "Method not allowed", 413: "Request body too large"}
    slug = {401: "unauthorized", 404: "not-found", 405: "method-not-allowed", 413: "too-large"}.get(exc.status_code, "http-error")
    body = problem(exc.status_code, slug, titles.get(exc.status_code, "HTTP error"), str(exc.detail), instance=request.url.path)
    return _problem_response(exc.status_code, body, headers=dict(exc.headers or {}))


async def _bug(request: Request, exc: Exception) -> JSONResponse:
    status, body = problem_of(exc)
    return _problem_response(status, {**body, "instance": request.url.path})


def create_app(store, config: ServeConfig | None = None) -> Starlette:
    """The ASGI application serving ``store`` (see the module docstring).

    >>> from ragprov.store import open_store
    >>> from starlette.testclient import TestClient
    >>> client = TestClient(create_app(open_store("memory:")))
    >>> client.get("/health").json()["status"]
    'ok'
    >>> client.get("/traces/nope").status_code
    404
    """
    api = Api(store, config or ServeConfig())

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        try:
            yield
        finally:
            api.pool.shutdown(wait=True, cancel_futures=False)

    routes = [
        Route("/", api.index, methods=["GET"], include_in_schema=False),
        Route("/openapi.json", api.openapi, methods=["GET"], include_in_schema=False),
        Route("/health", api.health, methods=["GET"]),
        Route("/ask", api.ask, methods=["POST"]),
        Route("/traces", api.list_traces, methods=["GET"]),
        Route("/traces/{ref:path}/stages/{n:int}", api.show_stage, methods=["GET"]),
        Route("/traces/{ref:path}", api.show_trace, methods=["GET"]),
        Route("/traces/{ref:path}", api.delete_trace, methods=["DELETE"]),
        Route("/lineage/edge", api.edge_lineage, methods=["GET"]),
        Route("/lineage/node", api.node_lineage, methods=["GET"]),
        Route("/lineage/document", api.document_lineage, methods=["GET"]),
        Mount("/static", StaticFiles(directory=STATIC_DIR), name="static"),
    ]
    app = Starlette(
        routes=routes,
        exception_handlers={RagprovError: _ragprov_error, HTTPException: _http_error, Exception: _bug},
        lifespan=lifespan,
    )
    app.state.api = api
    return app
