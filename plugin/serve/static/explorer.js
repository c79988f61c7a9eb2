/* ragprov explorer: ask with live stages, browse traces, follow an edge down to its sentence.
 *
 * Plain JavaScript, no library, no network beyond this server. With a script element "ragprov-data"
 * block in the page (the file `ragprov trace show ID --format html` writes) it shows that trace
 * from the embedded data and needs no server at all.
 */
"use strict";

const EMBEDDED = (() => {
  const el = document.getElementById("ragprov-data");
  return el ? JSON.parse(el.textContent) : null;
})();

/* -- DOM helpers ------------------------------------------------------------------------------ */
function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}
const svgNS = "http://www.w3.org/2000/svg";
function s(tag, attrs, ...children) {
  const el = document.createElementNS(svgNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v);
  }
  for (const c of children.flat()) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}
const $ = (sel) => document.querySelector(sel);
const short = (text, n) => { text = String(text || "").replace(/\s+/g, " ").trim(); return text.length <= n ? text : text.slice(0, n - 1) + "…"; };
const when = (iso) => iso ? new Date(iso).toLocaleString() : "?";
const localName = (iri) => String(iri || "").split(/[#/:]/).pop();

/* -- data: the server's API, or the embedded snapshot ----------------------------------------- */
const state = { token: sessionStorage.getItem("ragprov-token") || "", health: null };

async function getJSON(url) {
  const resp = await fetch(url, { headers: { Accept: "application/json" } });
  const body = await resp.json().catch(() => ({}));
  if (!resp.ok) throw new Error(body.detail || `${resp.status} ${resp.statusText}`);
  return body;
}
const enc = encodeURIComponent;
const api = {
  health: () => EMBEDDED ? Promise.resolve({ modes: [], writes_need_token: false }) : getJSON("/health"),
  traces: (q, kind) => getJSON(`/traces?limit=200${q ? "&q=" + enc(q) : ""}${kind ? "&kind=" + enc(kind) : ""}`),
  trace: (id) => EMBEDDED ? Promise.resolve(EMBEDDED.trace) : getJSON(`/traces/${enc(id)}`),
  edge: (key, trace) => (trace && trace.lineage && trace.lineage[key]) ? Promise.resolve(trace.lineage[key]) : getJSON(`/lineage/edge?edge=${enc(key)}`),
  node: (iri, terms) => EMBEDDED ? (EMBEDDED.nodes[iri] ? Promise.resolve(EMBEDDED.nodes[iri]) : Promise.reject(new Error("not in this file"))) : getJSON(`/lineage/node?node=${enc(iri)}&terms=${enc(terms || "")}`),
  // a chunk the trace kept comes with the trace; only other nodes need a request
  nodeOf: (trace, iri) => (trace && trace.chunks && trace.chunks[iri]) ? Promise.resolve(trace.chunks[iri]) : api.node(iri, trace ? trace.query : ""),
  document: (iri) => EMBEDDED ? (EMBEDDED.documents[iri] ? Promise.resolve(EMBEDDED.documents[iri]) : Promise.reject(new Error("not in this file"))) : getJSON(`/lineage/document?document=${enc(iri)}`),
};

/* -- wire events: read both ragprov's form and TrustGraph's (message_type, quoted triples under tr) -- */
function eventType(ev) { return ev.type || ev.message_type; }
function wireValue(term) {
  if (!term) return "";
  if (term.t === "i") return term.i;
  if (term.t === "l") return term.v;
  if (term.t === "t") { const t = term.tr || term; return `<<${wireValue(t.s)} ${wireValue(t.p)} ${wireValue(t.o)}>>`; }
  return term.i || term.v || term.b || "";
}
function triplesOf(ev, field) { return (ev[field] || []).map((t) => ({ s: wireValue(t.s), p: wireValue(t.p), o: wireValue(t.o) })); }
function stageSummary(ev) {
  const triples = triplesOf(ev, "explain_triples");
  const types = triples.filter((t) => t.p.endsWith("#type")).map((t) => localName(t.o));
  const known = ["Grounding", "Exploration", "Focus", "Synthesis", "Analysis", "Observation", "Conclusion", "Question"];
  const kind = ev.stage && ev.stage !== "explain" ? ev.stage : (types.find((t) => known.includes(t)) || types.find((t) => t.endsWith("Question")) || "stage");
  const own = triples.filter((t) => t.s === ev.explain_id);  // the stage's own properties, not its selections'
  const by = (name) => [...new Set(own.filter((t) => localName(t.p) === name).map((t) => t.o))];
  const parts = [];
  const concepts = by("concept"); if (concepts.length) parts.push("concepts: " + concepts.join(", "));
  const edges = by("edgeCount"); if (edges.length) parts.push(`explored ${edges[0]} edges from ${by("entity").length} entities`);
  const chunks = by("chunkCount"); if (chunks.length) parts.push(`retrieved ${chunks[0]} chunks`);
  const kept = by("selectedEdge").length + by("selectedChunk").length + by("selectedItem").length;
  if (kept && kind !== "Exploration") parts.push(`kept ${kept}`);
  const query = by("query"); if (query.length) parts.push(short(query[0], 120));
  const action = by("action"); if (action.length) parts.push("action: " + action[0]);
  return { kind: String(kind).replace(/^./, (c) => c.toUpperCase()), text: parts.join(" · ") };
}

/* -- server-sent events over fetch (EventSource cannot POST) --------------------------------- */
async function* sse(resp) {
  const reader = resp.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let cut;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, cut); buffer = buffer.slice(cut + 2);
      const msg = { event: "message", data: "" };
      for (const line of block.split("\n")) {
        const i = line.indexOf(":"); if (i <= 0) continue;
        const field = line.slice(0, i), val = line.slice(i + 1).replace(/^ /, "");
        if (field === "event") msg.event = val; else if (field === "data") msg.data += val; else if (field === "id") msg.id = val;
      }
      yield msg;
    }
  }
}

/* -- views ------------------------------------------------------------------------------------ */
function setView(node, tab) {
  const app = $("#app"); app.replaceChildren(node);
  for (const a of document.querySelectorAll("header nav a")) a.classList.toggle("active", a.id === "nav-" + tab);
}

function askView() {
  const modes = (state.health && state.health.modes.length) ? state.health.modes : ["graph-rag", "doc-rag", "agent", "local", "global", "drift", "basic"];
  const status = h("p", { id: "ask-status", class: "muted small" });
  const stages = h("ol", { id: "live-stages", class: "live" });
  const answer = h("div", { id: "live-answer", class: "answer", hidden: true });
  const sources = h("ol", { id: "live-sources", class: "small" });
  const result = h("div", { id: "ask-result" });
  const form = h("form", { class: "ask", id: "ask-form" },
    h("select", { id: "ask-mode", "aria-label": "mode" }, modes.map((m) => h("option", { value: m }, m))),
    h("textarea", { id: "ask-question", placeholder: "Ask a question, e.g. Who is Scrooge's nephew?", required: true }),
    h("button", { id: "ask-button", type: "submit" }, "Ask"),
    state.health && state.health.writes_need_token
      ? h("input", { class: "token", id: "ask-token", type: "password", placeholder: "bearer token (this server needs one to ask)", value: state.token })
      : null);
  form.addEventListener("submit", (e) => { e.preventDefault(); runAsk({ status, stages, answer, sources, result }); });
  form.querySelector("textarea").addEventListener("keydown", (e) => { if (e.key === "Enter" && !e.shiftKey) { e.preventDefault(); form.requestSubmit(); } });
  return h("section", {}, h("h2", {}, "Ask"), form, status, stages, answer, sources, result);
}

async function runAsk(ui) {
  const mode = $("#ask-mode").value, question = $("#ask-question").value.trim();
  const tokenInput = $("#ask-token");
  if (tokenInput) { state.token = tokenInput.value; sessionStorage.setItem("ragprov-token", state.token); }
  if (!question) { ui.status.textContent = "Type a question first."; return; }
  const button = $("#ask-button"); button.disabled = true;
  ui.stages.replaceChildren(); ui.answer.textContent = ""; ui.answer.hidden = true; ui.sources.replaceChildren(); ui.result.replaceChildren();
  ui.status.textContent = "asking…"; ui.status.className = "muted small";
  const headers = { "Content-Type": "application/json", Accept: "text/event-stream" };
  if (state.token) headers.Authorization = "Bearer " + state.token;
  let traceId = null;
  try {
    const resp = await fetch("/ask", { method: "POST", headers, body: JSON.stringify({ mode, question }) });
    if (!resp.ok) { const p = await resp.json().catch(() => ({})); throw new Error(p.detail || resp.statusText); }
    for await (const msg of sse(resp)) {
      const ev = JSON.parse(msg.data);
      const type = msg.event || eventType(ev);
      if (type === "explain") {
        const sum = stageSummary(ev);
        if (!traceId) traceId = ev.explain_id;
        ui.stages.append(h("li", { class: "live-stage", "data-kind": sum.kind }, h("strong", {}, sum.kind), " ", h("span", { class: "muted small" }, sum.text)));
      } else if (type === "chunk") {
        ui.answer.hidden = false; ui.answer.append(ev.content);
      } else if (type === "end_of_session") {
        traceId = ev.trace || traceId;
        for (const src of ev.sources || []) ui.sources.append(h("li", {}, [src.title || localName(src.document), src.page != null ? `, p. ${src.page}` : ""].join("")));
      } else if (type === "error") {
        throw new Error(ev.detail || "the pipeline failed");
      }
    }
    ui.status.textContent = "recorded as " + traceId;
    if (traceId) {
      const trace = await api.trace(traceId);
      ui.answer.replaceChildren(answerWithCitations(trace));
      ui.result.replaceChildren(h("p", {}, h("a", { href: "#/trace/" + enc(traceId), id: "open-trace" }, "Open the whole trace →")));
    }
  } catch (err) {
    ui.status.textContent = "error: " + err.message; ui.status.className = "error";
  } finally { button.disabled = false; }
}

function answerWithCitations(trace) {
  const text = trace.answer || "";
  const cites = trace.citations || [];
  // [n] names the source line "[n] …" of the next Sources block (an agent's answer has one per tool)
  const citeFor = (n, pos) => cites.find((c) => c.n === n && c.at >= pos) || cites.find((c) => c.n === n);
  const out = h("span", { class: "answer-text" });
  let last = 0;
  for (const m of text.matchAll(/\[(\d+)\]/g)) {
    out.append(text.slice(last, m.index));
    const cite = citeFor(Number(m[1]), m.index);
    out.append(cite && cite.chunk
      ? h("a", { class: "cite", title: cite.label, "data-n": m[1], onclick: () => showNode(cite.chunk, trace) }, m[1])
      : h("span", { class: "cite" }, m[0]));
    last = m.index + m[0].length;
  }
  out.append(text.slice(last));
  return out;
}

async function tracesView() {
  const search = h("input", { id: "trace-search", type: "search", placeholder: "search questions…" });
  const kind = h("select", { id: "trace-kind" }, h("option", { value: "" }, "every kind"), ["graph-rag", "doc-rag", "agent", "local", "global", "drift", "basic"].map((k) => h("option", { value: k }, k)));
  const body = h("tbody", { id: "trace-rows" });
  const section = h("section", {}, h("h2", {}, "Traces"), h("div", { class: "toolbar" }, search, kind),
    h("table", {}, h("thead", {}, h("tr", {}, h("th", {}, "kind"), h("th", {}, "started"), h("th", {}, "question"), h("th", {}, "status"))), body));
  let rows = [];
  const render = () => {
    const q = search.value.trim().toLowerCase();
    body.replaceChildren(...rows.filter((r) => !q || r.query.toLowerCase().includes(q)).map((r) =>
      h("tr", { class: "trace-row", "data-question": r.question, onclick: () => { location.hash = "#/trace/" + enc(r.question); } },
        h("td", {}, h("span", { class: "badge" }, r.kind.replace(/Question$/, ""))), h("td", { class: "small" }, when(r.started)),
        h("td", {}, r.query), h("td", {}, h("span", { class: "badge " + r.status }, r.status)))));
    if (!body.children.length) body.append(h("tr", {}, h("td", { colspan: 4, class: "muted" }, rows.length ? "no trace matches" : "no traces yet: ask something")));
  };
  const load = async () => { rows = (await api.traces("", kind.value)).traces; render(); };
  search.addEventListener("input", render); kind.addEventListener("change", load);
  setView(section, "traces");
  try { await load(); } catch (e) { body.replaceChildren(h("tr", {}, h("td", { class: "error" }, e.message))); }
}

async function traceView(id) {
  setView(h("p", { class: "muted" }, "loading trace…"), "traces");
  let trace;
  try { trace = await api.trace(id); } catch (e) { setView(h("p", { class: "error" }, e.message), "traces"); return; }
  const timeline = h("ol", { class: "timeline", id: "timeline" });
  const start = trace.started ? new Date(trace.started).getTime() : null;
  trace.stages.forEach((st, i) => timeline.append(stageItem(trace, st, i + 1, start)));
  const section = h("section", { id: "trace-view", "data-question": trace.question },
    h("h2", {}, trace.query),
    h("p", { class: "muted small" }, `${trace.kind} · started ${when(trace.started)} · `, trace.ended ? "complete" : h("span", { class: "error" }, "incomplete"),
      trace.model ? ` · model ${trace.model}` : "", " · ", h("span", { class: "mono" }, trace.question)),
    trace.answer ? h("div", {}, h("h3", {}, "Answer"), h("div", { class: "answer", id: "trace-answer" }, answerWithCitations(trace))) : null,
    h("h3", {}, "Stages"), timeline);
  setView(section, "traces");
}

function stageItem(trace, st, n, start) {
  const offset = start && st.generated ? `+${((new Date(st.generated).getTime() - start) / 1000).toFixed(3)} s` : "";
  const li = h("li", { class: "stage", "data-kind": st.kind, id: "stage-" + n },
    h("div", { class: "stage-head" }, h("strong", {}, `${n}. ${st.kind}`), h("span", { class: "muted small" }, offset)),
    h("div", { class: "lines" }, st.lines.filter((l) => !/^\s+(#\d+|why:|answer:)/.test(l)).map((l) => l.trim()).join("\n")));
  const edges = st.selections.filter((x) => x.edge_view);
  if (edges.length) {
    li.append(edgeGraph(trace, edges));
    li.append(edgeTable(trace, edges));
  }
  const chunks = st.selections.filter((x) => x.chunk && !x.edge_view);
  if (chunks.length) li.append(chunkTable(trace, chunks));
  const items = st.selections.filter((x) => x.item);
  if (items.length) li.append(h("table", { class: "items" }, h("tbody", {}, items.map((x) =>
    h("tr", x.source_label ? { class: "item-row edge-row", onclick: () => showNode(x.item, trace) } : {},
      h("td", {}, "#" + x.rank), h("td", {}, x.item_kind || "item"), h("td", {}, x.item_label, x.source_label ? h("span", { class: "muted small" }, " · " + x.source_label) : ""),
      h("td", { class: "score" }, x.score != null ? Number(x.score).toFixed(3) : ""))))));
  const c = st.candidates || {};
  if (c.considered != null) {
    const dropped = c.considered - c.kept;
    li.append(h("div", { class: "small candidates" }, `kept ${c.kept} of ${c.considered} candidates; `, h("span", { class: "not-kept" }, `${dropped} not kept`),
      c.entities && c.entities.length ? ` (explored from ${c.entities.length} entities: ${c.entities.slice(0, 12).map((e) => e.label).join(", ")}${c.entities.length > 12 ? " …" : ""})` : ""));
    if (c.not_kept && c.not_kept.length) li.append(h("ul", { class: "small not-kept-list" }, c.not_kept.map((iri) =>
      h("li", { class: "not-kept" }, "not kept: ", h("a", { onclick: () => showNode(iri, trace) }, localName(iri).slice(0, 16) + "…")))));
  }
  if (st.content && ["Synthesis", "Conclusion"].indexOf(st.kind) < 0) li.append(h("div", { class: "lines" }, short(st.content, 600)));
  for (const sub of st.subtraces || []) li.append(h("div", { class: "small" }, "sub-trace: ", h("a", { href: "#/trace/" + enc(sub.question) }, `${sub.kind} “${sub.query}”`)));
  return li;
}

function edgeTable(trace, edges) {
  return h("table", { class: "edges" }, h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, "edge"), h("th", {}, "score"), h("th", {}, "why"))),
    h("tbody", {}, edges.map((x) => h("tr", { class: "edge-row", "data-key": x.edge_view.key, onclick: () => showEdge(x.edge_view.key, trace) },
      h("td", {}, x.rank), h("td", {}, h("strong", {}, x.edge_view.s.label), " —", short(x.edge_view.p.label, 80), "→ ", h("strong", {}, x.edge_view.o.label)),
      h("td", { class: "score" }, x.score != null ? Number(x.score).toFixed(3) : ""), h("td", { class: "why" }, x.reasoning || "")))));
}

function chunkTable(trace, chunks) {
  return h("table", { class: "chunks" }, h("tbody", {}, chunks.map((x) => h("tr", { class: "chunk-row edge-row", "data-chunk": x.chunk, onclick: () => showNode(x.chunk, trace) },
    h("td", {}, "#" + x.rank), h("td", {}, x.source_label || h("span", { class: "mono" }, localName(x.chunk).slice(0, 24) + "…")),
    h("td", { class: "score" }, x.score != null ? Number(x.score).toFixed(3) : "")))));
}

/* A small deterministic force layout: entities as nodes, selected edges as links. */
function edgeGraph(trace, edges) {
  const nodes = new Map();
  const node = (t) => { const k = t.iri || t.literal || t.label; if (!nodes.has(k)) nodes.set(k, { key: k, label: t.label, x: 0, y: 0, vx: 0, vy: 0 }); return nodes.get(k); };
  const links = edges.map((x) => ({ a: node(x.edge_view.s), b: node(x.edge_view.o), sel: x }));
  const list = [...nodes.values()];
  const W = 900, H = Math.max(360, Math.min(900, 160 + list.length * 14));
  // Fruchterman–Reingold from a circle (deterministic: no randomness), cooling linearly.
  const k = 0.8 * Math.sqrt((W * H) / Math.max(list.length, 1));
  list.forEach((n, i) => { const t = (2 * Math.PI * i) / list.length; n.x = W / 2 + (W / 3) * Math.cos(t); n.y = H / 2 + (H / 3) * Math.sin(t); });
  const steps = 250;
  for (let step = 0; step < steps; step++) {
    const temp = (W / 8) * (1 - step / steps) + 1;
    for (const n of list) { n.vx = 0; n.vy = 0; }
    for (let i = 0; i < list.length; i++) for (let j = i + 1; j < list.length; j++) {
      const a = list[i], b = list[j];
      let dx = a.x - b.x, dy = a.y - b.y, d = Math.hypot(dx, dy);
      if (d < 0.01) { dx = 0.01 * (i - j); dy = 0.01; d = Math.hypot(dx, dy); }
      const f = (k * k) / d;
      a.vx += (dx / d) * f; a.vy += (dy / d) * f; b.vx -= (dx / d) * f; b.vy -= (dy / d) * f;
    }
    for (const l of links) {
      if (l.a === l.b) continue;
      const dx = l.b.x - l.a.x, dy = l.b.y - l.a.y, d = Math.max(Math.hypot(dx, dy), 0.01), f = (d * d) / k;
      l.a.vx += (dx / d) * f; l.a.vy += (dy / d) * f; l.b.vx -= (dx / d) * f; l.b.vy -= (dy / d) * f;
    }
    for (const n of list) {
      n.vx += (W / 2 - n.x) * 0.02; n.vy += (H / 2 - n.y) * 0.02;  // a little gravity keeps loose parts near
      const d = Math.max(Math.hypot(n.vx, n.vy), 0.01), move = Math.min(d, temp);
      n.x += (n.vx / d) * move; n.y += (n.vy / d) * move;
    }
  }
  // Fit the drawing into the frame (room on the right for labels), instead of piling nodes on its edges.
  const xs = list.map((n) => n.x), ys = list.map((n) => n.y);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  for (const n of list) {
    n.x = 24 + ((n.x - x0) / Math.max(x1 - x0, 1)) * (W - 24 - 170);
    n.y = 22 + ((n.y - y0) / Math.max(y1 - y0, 1)) * (H - 44);
  }
  const svg = s("svg", { class: "graph", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": "selected edges" });
  for (const l of links) {
    const mx = (l.a.x + l.b.x) / 2, my = (l.a.y + l.b.y) / 2;
    svg.append(s("g", { class: "link", "data-key": l.sel.edge_view.key, onclick: () => showEdge(l.sel.edge_view.key, trace) },
      s("title", {}, `#${l.sel.rank} ${l.sel.edge_view.s.label} — ${l.sel.edge_view.p.label} → ${l.sel.edge_view.o.label}`),
      s("line", { x1: l.a.x, y1: l.a.y, x2: l.b.x, y2: l.b.y, "marker-end": "url(#arrow)" }),
      s("line", { class: "hit", x1: l.a.x, y1: l.a.y, x2: l.b.x, y2: l.b.y }),
      s("text", { x: mx, y: my - 3, "text-anchor": "middle" }, "#" + l.sel.rank)));
  }
  svg.prepend(s("defs", {}, s("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 16, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" }, s("path", { d: "M0,0 L10,5 L0,10 z", fill: "#9aa7ba" }))));
  for (const n of list) svg.append(s("g", { class: "node" }, s("title", {}, n.label), s("circle", { cx: n.x, cy: n.y, r: 5 }), s("text", { x: n.x + 7, y: n.y + 4 }, short(n.label, 26))));
  return svg;
}

/* -- the lineage drawer ----------------------------------------------------------------------- */
function openDrawer(...children) {
  const drawer = $("#lineage");
  drawer.replaceChildren(h("button", { class: "close", title: "close", onclick: closeDrawer }, "×"), ...children.flat());
  drawer.hidden = false; $("#app").classList.add("with-drawer");
}
function closeDrawer() { $("#lineage").hidden = true; $("#app").classList.remove("with-drawer"); for (const e of document.querySelectorAll(".selected")) e.classList.remove("selected"); }

function sourceBlock(entry) {
  const chain = h("ol", { class: "chain" }, (entry.chain || []).map((n) => h("li", { "data-kind": n.kind },
    h("span", { class: "kind" }, n.kind), n.kind === "document"
      ? h("a", { class: "document-link", href: "#/document/" + enc(n.iri) }, n.title || n.label || localName(n.iri))
      : [n.title || n.label || (n.chunk_index != null ? `chunk ${n.chunk_index}` : n.page_number != null ? `page ${n.page_number}` : localName(n.iri).slice(0, 24))])));
  // Flow hard-wrapped lines (same length, so the highlight's offsets still hold); keep blank lines.
  const text = (entry.text || "").replace(/([^\n])\n(?!\n)/g, "$1 ");
  const body = h("div", { class: "source-text" });
  if (entry.highlight) {
    const [a, b] = entry.highlight;
    body.append(text.slice(0, a), h("mark", { class: "supporting" }, text.slice(a, b)), text.slice(b));
  } else body.append(text || "(no text recorded for this source)");
  return h("div", { class: "card source" }, chain, body);
}

async function showEdge(key, trace) {
  for (const e of document.querySelectorAll(".selected")) e.classList.remove("selected");
  for (const e of document.querySelectorAll(`[data-key="${CSS.escape(key)}"]`)) e.classList.add("selected");
  openDrawer(h("p", { class: "muted" }, "following the edge…"));
  try {
    const lin = await api.edge(key, trace);
    const e = lin.edge;
    openDrawer(h("h2", {}, "Where this edge comes from"),
      h("p", {}, h("strong", {}, e.s.label), " — ", e.p.label, " → ", h("strong", {}, e.o.label)),
      lin.chains.length ? lin.chains.map(sourceBlock) : h("p", { class: "muted" }, "no statement reifies this edge (it was not loaded with its sources)"),
      h("p", { class: "mono muted" }, key));
    const m = $("#lineage mark"); if (m) m.scrollIntoView({ block: "center" });
  } catch (err) { openDrawer(h("p", { class: "error" }, err.message)); }
}

async function showNode(iri, trace) {
  openDrawer(h("p", { class: "muted" }, "following the chunk…"));
  try {
    const lin = await api.nodeOf(trace, iri);
    openDrawer(h("h2", {}, "Where this passage comes from"), sourceBlock(lin), h("p", { class: "mono muted" }, iri));
    const m = $("#lineage mark"); if (m) m.scrollIntoView({ block: "center" });
  } catch (err) { openDrawer(h("p", { class: "error" }, err.message)); }
}

async function documentView(iri) {
  closeDrawer();
  setView(h("p", { class: "muted" }, "loading document…"), "traces");
  let doc;
  try { doc = await api.document(iri); } catch (e) { setView(h("p", { class: "error" }, e.message), "traces"); return; }
  const d = doc.document;
  const rows = doc.answers.map((a) => h("tr", { class: "answer-row trace-row", onclick: () => { location.hash = "#/trace/" + enc(a.parent_question || a.question); } },
    h("td", { class: "small" }, when(a.started)), h("td", {}, a.query, a.parent_question ? h("span", { class: "muted small" }, " (sub-trace of an agent)") : ""),
    h("td", { class: "small" }, a.edges.slice(0, 3).map((e) => `${e.s.label} → ${e.o.label}`).join("; ") + (a.edges.length > 3 ? ` … (${a.edges.length} edges)` : ""),
      a.chunks.length ? `${a.edges.length ? "; " : ""}${a.chunks.length} chunk(s)` : "")));
  setView(h("section", { id: "document-view", "data-document": d.iri },
    h("h2", {}, d.title || d.label || localName(d.iri)),
    h("p", { class: "muted small" }, [d.mime_type, d.page_count != null ? `${d.page_count} page(s)` : null].filter(Boolean).join(" · "), " ", h("span", { class: "mono" }, d.iri)),
    h("h3", {}, `${doc.answers.length} recorded answer(s) rested on this document`),
    h("table", {}, h("thead", {}, h("tr", {}, h("th", {}, "asked"), h("th", {}, "question"), h("th", {}, "via"))), h("tbody", { id: "document-answers" }, rows))), "traces");
}

/* -- routing ---------------------------------------------------------------------------------- */
async function route() {
  const hash = location.hash || (EMBEDDED ? "#/trace/" + enc(EMBEDDED.trace.question) : "#/ask");
  const [, page, arg] = hash.match(/^#\/([^/]*)\/?(.*)$/) || [];
  if (page === "trace" && arg) return traceView(decodeURIComponent(arg));
  if (page === "document" && arg) return documentView(decodeURIComponent(arg));
  if (EMBEDDED) return traceView(EMBEDDED.trace.question);
  closeDrawer();
  if (page === "traces") return tracesView();
  setView(askView(), "ask");
}

window.addEventListener("hashchange", route);
(async () => {
  if (EMBEDDED) { for (const a of document.querySelectorAll("header nav a")) a.hidden = true; }
  try { state.health = await api.health(); } catch (e) { state.health = null; }
  await route();
})();
