"""The async graph drawn: Graphviz DOT, SVG through Graphviz's `dot`, and a self-contained HTML page."""

from __future__ import annotations

import html
import json
import secrets
import shutil
import subprocess

from gpu_lsp.diagnostics.model import Diagnostic
from gpu_lsp.diagnostics.sanitizer.graph import AsyncGraph, GraphNode
from gpu_lsp.diagnostics.sanitizer.streams import HOST_LANE

COLOURS = {"race": "#d62728", "leak": "#ff7f0e", "other": "#9467bd"}
INSTALL_DOT = (
    "Graphviz's `dot` is not installed (Debian/Ubuntu: apt-get install graphviz; macOS: brew install graphviz); "
    "--format html draws the graph without it"
)


class RenderError(Exception):
    """A format that cannot be produced here (one line saying why)."""


def _hazard_kind(d: Diagnostic) -> str:
    if d.code == "GPU206" or (d.code == "GPU411" and "never freed" in d.message):
        return "leak"
    return "race" if d.code in ("GPU410", "GPU411", "GPU208") else "other"


def hazard_colour(node: GraphNode) -> str | None:
    """Red for races and lifetime faults, orange for leaked tokens and buffers, purple for other hazards."""
    kinds = {_hazard_kind(d) for d in node.hazards}
    return next((COLOURS[k] for k in ("race", "leak", "other") if k in kinds), None)


def _dot_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _lane_name(stream: int) -> str:
    return "host (synchronous)" if stream == HOST_LANE else f"stream {stream}"


def to_dot(graphs: list[AsyncGraph]) -> str:
    """One digraph per function: a cluster per stream, joins as bars, conflicts dashed."""
    out: list[str] = []
    for g in graphs:
        out.append(f"digraph {_dot_string('async ' + g.function)} {{")
        out.append('  graph [rankdir=TB, fontname="monospace"];')
        out.append('  node [shape=box, style="rounded,filled", fillcolor="#ffffff", fontname="monospace", fontsize=10];')
        out.append('  edge [fontname="monospace", fontsize=9];')
        lanes = sorted({n.stream for n in g.nodes})
        for lane in lanes:
            cluster = "host" if lane == HOST_LANE else f"s{lane}"
            out.append(f"  subgraph cluster_{cluster} {{")
            out.append(f"    label={_dot_string(_lane_name(lane))}; style=dashed; color=\"#999999\";")
            for n in g.nodes:
                if n.stream != lane:
                    continue
                attrs = [f"label={_dot_string(n.label)}"]
                if n.kind == "join":
                    attrs = ['label=""', f"xlabel={_dot_string(n.label)}", "shape=box", "height=0.06", "width=1.6", 'fillcolor="#000000"']
                colour = hazard_colour(n)
                if colour is not None:
                    attrs.append(f'color="{colour}"')
                    attrs.append("penwidth=2")
                if n.hazards:
                    attrs.append(f"tooltip={_dot_string('; '.join(f'{d.code}: {d.message}' for d in n.hazards))}")
                out.append(f"    {n.id} [{', '.join(attrs)}];")
            out.append("  }")
        for e in g.edges:
            if e.kind == "token":
                out.append(f"  {e.source} -> {e.target} [label={_dot_string(e.label)}];")
            else:
                out.append(
                    f'  {e.source} -> {e.target} [label={_dot_string(e.label)}, style=dashed, color="{COLOURS["race"]}", '
                    "dir=none, constraint=false];"
                )
        out.append("}")
    return "\n".join(out) + "\n"


def to_svg_with_dot(graphs: list[AsyncGraph]) -> str:
    """SVG drawn by Graphviz's `dot` (RenderError when it is not installed or fails)."""
    exe = shutil.which("dot")
    if exe is None:
        raise RenderError(INSTALL_DOT)
    proc = subprocess.run([exe, "-Tsvg"], input=to_dot(graphs[:1]), capture_output=True, text=True, timeout=60, check=False)
    if proc.returncode != 0:
        raise RenderError(f"dot failed: {proc.stderr.strip().splitlines()[0] if proc.stderr.strip() else proc.returncode}")
    return proc.stdout


# --- the self-contained drawing (no Graphviz, no network) ---------------------------------------

LANE_W, ROW_H, BOX_W, BOX_H, TOP, LEFT = 250, 64, 220, 34, 56, 20


def layout_svg(g: AsyncGraph) -> str:
    """An SVG of one graph: a column per lane (host first, then streams), a row per op in program order."""
    lanes = sorted({n.stream for n in g.nodes})
    column = {lane: i for i, lane in enumerate(lanes)}
    pos: dict[str, tuple[int, int]] = {}
    for row, n in enumerate(g.nodes):
        pos[n.id] = (LEFT + column[n.stream] * LANE_W, TOP + row * ROW_H)
    width = LEFT * 2 + max(1, len(lanes)) * LANE_W
    height = TOP + max(1, len(g.nodes)) * ROW_H + 20
    parts = [
        (
            '<svg xmlns="http://www.w3.org/2000/svg" class="async-graph" font-family="monospace" '
            f'width="{width}" height="{height}" viewBox="0 0 {width} {height}">'
        ),
        (
            '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto">'
            '<path d="M0,0 L10,5 L0,10 z" fill="#444"/></marker></defs>'
        ),
    ]
    for lane, i in column.items():
        x = LEFT + i * LANE_W - 10
        parts.append(f'<rect class="lane" x="{x}" y="8" width="{LANE_W - 10}" height="{height - 16}" rx="6" fill="#f4f4f4"/>')
        parts.append(f'<text class="lane-title" x="{x + 10}" y="30" font-weight="bold">{html.escape(_lane_name(lane))}</text>')
    for e in g.edges:
        (x1, y1), (x2, y2) = pos[e.source], pos[e.target]
        if e.kind == "token":
            parts.append(
                f'<line class="edge token" x1="{x1 + BOX_W / 2}" y1="{y1 + BOX_H}" x2="{x2 + BOX_W / 2}" y2="{y2}" '
                'stroke="#444" marker-end="url(#arrow)"/>'
            )
        else:
            parts.append(
                f'<line class="edge conflict" x1="{x1 + BOX_W}" y1="{y1 + BOX_H / 2}" x2="{x2 + BOX_W}" y2="{y2 + BOX_H / 2}" '
                f'stroke="{COLOURS["race"]}" stroke-dasharray="5,4"><title>{html.escape(e.label)}</title></line>'
            )
    for n in g.nodes:
        x, y = pos[n.id]
        colour = hazard_colour(n) or "#555555"
        tip = "\n".join([n.label] + [f"{d.code}: {d.message}" for d in n.hazards])
        parts.append(f'<g class="node" data-id="{n.id}"><title>{html.escape(tip)}</title>')
        if n.kind == "join":
            parts.append(f'<rect x="{x}" y="{y + BOX_H / 2 - 3}" width="{BOX_W}" height="6" fill="#000"/>')
            parts.append(f'<text x="{x}" y="{y + BOX_H / 2 - 7}" font-size="11">{html.escape(n.label)}</text>')
        else:
            width_px = 3 if n.hazards else 1
            parts.append(
                f'<rect x="{x}" y="{y}" width="{BOX_W}" height="{BOX_H}" rx="5" fill="#fff" stroke="{colour}" stroke-width="{width_px}"/>'
            )
            parts.append(f'<text x="{x + 8}" y="{y + 21}" font-size="11">{html.escape(_clip(n.label))}</text>')
        parts.append("</g>")
    parts.append("</svg>")
    return "".join(parts)


def _clip(text: str, limit: int = 34) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-{nonce}';">
<title>{title}</title>
<style>
body {{ font-family: monospace; font-size: 12px; margin: 12px; }}
.node {{ cursor: pointer; }}
.legend span {{ margin-right: 18px; }}
</style>
</head>
<body>
<h1>{title}</h1>
<p class="legend"><span>── token dependency</span><span style="color:#d62728">- - buffer conflict</span><span>▬ join</span>
<span style="color:#d62728">■ race / lifetime</span><span style="color:#ff7f0e">■ leak</span><span style="color:#9467bd">■ other hazard</span></p>
{body}
<script type="application/json" id="graph-data">{data}</script>
<script nonce="{nonce}">
(function () {{
  const data = JSON.parse(document.getElementById("graph-data").textContent);
  const vscode = typeof acquireVsCodeApi === "function" ? acquireVsCodeApi() : null;
  document.querySelectorAll("section[data-index]").forEach(function (section) {{
    const fn = data.functions[Number(section.dataset.index)];
    section.querySelectorAll(".node").forEach(function (el) {{
      el.addEventListener("click", function () {{
        const node = fn.nodes.find(function (n) {{ return n.id === el.dataset.id; }});
        if (vscode && node) vscode.postMessage({{ type: "reveal", range: node.range }});
      }});
    }});
  }});
}})();
</script>
</body>
</html>
"""


def to_html(graphs: list[AsyncGraph], document: dict, title: str) -> str:
    """A page that works offline: inline SVG per function, the JSON document, a script posting node clicks
    to a VS Code webview (`{type: "reveal", range}`) when it runs in one."""
    sections = []
    for i, g in enumerate(graphs):
        sections.append(f'<section data-index="{i}"><h2>@{html.escape(g.function)}</h2>{layout_svg(g)}</section>')
    if not sections:
        sections.append("<p>No host function issues GPU work in this file.</p>")
    data = json.dumps(document).replace("</", "<\\/")
    return PAGE.format(nonce=secrets.token_hex(16), title=html.escape(title), body="\n".join(sections), data=data)
