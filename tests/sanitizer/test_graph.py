"""`gpu-lint graph` in every format on the examples and fixtures, and the `gpu-lsp/asyncGraph` document."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import jsonschema
import pydot
import pytest

from gpu_lsp.cli import gpu_graph
from gpu_lsp.cli.gpu_lint import main as gpu_lint

REPO = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((REPO / "docs" / "async-graph.schema.json").read_text())
FIXTURES = REPO / "tests" / "fixtures" / "rules"
INPUTS = sorted((REPO / "examples").glob("*.mlir")) + [FIXTURES / f"GPU41{i}.mlir" for i in range(6)]
HARNESS = Path(__file__).with_name("graph_harness.js")


def graph(path: Path, fmt: str, *extra: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = gpu_graph.graph_command([str(path), "--format", fmt, *extra], io.StringIO(), out, err)
    return code, out.getvalue(), err.getvalue()


def document(path: Path) -> dict:
    code, out, _ = graph(path, "json")
    assert code == 0
    return json.loads(out)


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.name)
def test_json_follows_the_schema(path: Path) -> None:
    doc = document(path)
    jsonschema.validate(doc, SCHEMA)
    assert doc["functions"], "every input has a host function issuing GPU work"
    for fn in doc["functions"]:
        ids = {n["id"] for n in fn["nodes"]}
        assert all(e["source"] in ids and e["target"] in ids for e in fn["edges"])


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.name)
def test_dot_parses_back_to_the_same_graph(path: Path) -> None:
    code, out, _ = graph(path, "dot")
    assert code == 0
    parsed = pydot.graph_from_dot_data(out)
    doc = document(path)
    assert len(parsed) == len(doc["functions"])
    for dot, fn in zip(parsed, doc["functions"]):
        nodes = {n.get_name() for sub in dot.get_subgraphs() for n in sub.get_nodes()}
        assert nodes == {n["id"] for n in fn["nodes"]}
        edges = sorted((e.get_source(), e.get_destination(), e.get("style") == "dashed") for e in dot.get_edges())
        assert edges == sorted((e["source"], e["target"], e["kind"] == "conflict") for e in fn["edges"])
        lanes = {sub.get_name() for sub in dot.get_subgraphs()}
        assert lanes == {"cluster_host" if n["stream"] == -1 else f"cluster_s{n['stream']}" for n in fn["nodes"]}


def test_races_are_dashed_conflicts_between_the_racing_ops() -> None:
    fn = document(FIXTURES / "GPU410.mlir")["functions"][3]
    conflicts = [e for e in fn["edges"] if e["kind"] == "conflict"]
    nodes = {n["id"]: n for n in fn["nodes"]}
    assert [(nodes[e["source"]]["label"], nodes[e["target"]]["label"], e["label"]) for e in conflicts] == [
        ("%t1 = gpu.launch_func @kernels::@fill", "%t2 = gpu.launch_func @kernels::@fill", "%a"),
        ("%t2 = gpu.launch_func @kernels::@fill", "%t3 = gpu.memcpy %h, %v", "%a"),
    ]
    assert {h["code"] for h in nodes[conflicts[1]["target"]]["hazards"]} == {"GPU410"}
    # The forked launches run on two streams; the memcpy continues the first launch's stream.
    streams = [n["stream"] for n in fn["nodes"]]
    assert streams == [0, 0, 1, 0, -1]


def test_joins_and_streams_of_the_example() -> None:
    fn = document(REPO / "examples" / "async_pipeline.mlir")["functions"][0]
    assert fn["streams"] == 1 and all(n["stream"] in (0, -1) for n in fn["nodes"])
    assert [n["kind"] for n in fn["nodes"]][:2] == ["wait", "alloc"]


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.external: list[str] = []
        self.csp = ""

    def handle_starttag(self, tag: str, attrs) -> None:
        a = dict(attrs)
        for key in ("src", "href"):
            if a.get(key) and not a[key].startswith("#"):
                self.external.append(f"{tag} {key}={a[key]}")
        if tag == "meta" and a.get("http-equiv") == "Content-Security-Policy":
            self.csp = a.get("content", "")


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.name)
def test_html_is_self_contained(path: Path) -> None:
    code, out, _ = graph(path, "html")
    assert code == 0
    page = _Page()
    page.feed(out)
    assert page.external == [] and "default-src 'none'" in page.csp
    data = out.split('<script type="application/json" id="graph-data">', 1)[1].split("</script>", 1)[0]
    assert json.loads(data) == document(path)
    for svg in out.split("<svg ")[1:]:
        root = ET.fromstring("<svg " + svg.split("</svg>", 1)[0] + "</svg>")
        assert root.tag.endswith("svg")


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_html_script_runs_headless_and_reveals_clicked_ops(tmp_path: Path) -> None:
    path = FIXTURES / "GPU410.mlir"
    page = tmp_path / "graph.html"
    assert graph(path, "html", "-o", str(page))[0] == 0
    proc = subprocess.run(["node", str(HARNESS), str(page)], capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    posted = [json.loads(line) for line in proc.stdout.splitlines()]
    ranges = [n["range"] for fn in document(path)["functions"] for n in fn["nodes"]]
    assert posted == [{"type": "reveal", "range": r} for r in ranges]


def test_svg_needs_graphviz(monkeypatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    code, out, err = graph(FIXTURES / "GPU410.mlir", "svg")
    assert code == 2 and out == ""
    assert "apt-get install graphviz" in err and "--format html" in err


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz is not installed")
def test_svg_through_graphviz() -> None:
    code, out, _ = graph(REPO / "examples" / "async_pipeline.mlir", "svg")
    assert code == 0
    root = ET.fromstring(out.split("-->", 1)[1] if out.startswith("<?xml") else out)
    titles = {t.text for t in root.iter("{http://www.w3.org/2000/svg}title")}
    assert {n["id"] for n in document(REPO / "examples" / "async_pipeline.mlir")["functions"][0]["nodes"]} <= titles


def test_function_selection_and_errors(tmp_path: Path, capsys) -> None:
    path = FIXTURES / "GPU411.mlir"
    assert [f["name"] for f in document(path)["functions"]] == ["main", "make", "leak", "twice", "after", "main"]
    code, out, _ = graph(path, "json", "--function", "@twice")
    assert code == 0 and [f["name"] for f in json.loads(out)["functions"]] == ["twice"]
    code, _, err = graph(path, "json", "--function", "nowhere")
    assert code == 2 and err == f"gpu-lint graph: error: no host function @nowhere issues GPU work in {path}\n"
    assert gpu_lint(["graph", str(tmp_path / "missing.mlir")]) == 2
    assert "cannot read" in capsys.readouterr().err


def _hazard_codes(doc: dict) -> list[str]:
    return sorted(h["code"] for fn in doc["functions"] for n in fn["nodes"] for h in n.get("hazards", []))


def test_the_mlir_version_option_and_setting(tmp_path: Path, monkeypatch) -> None:
    """The hazards drawn are those of the LLVM asked for: `--mlir-version`, else the one configured for the file
    (issue 26; its folder's configuration, as gpu-lint checks it)."""
    path = tmp_path / "sub" / "GPU201.mlir"
    path.parent.mkdir()
    path.write_text((FIXTURES / "GPU201.mlir").read_text())
    newest = _hazard_codes(document(path))
    code, out, _ = graph(path, "json", "--mlir-version", "18")
    assert code == 0 and len(_hazard_codes(json.loads(out))) > len(newest)  # GPU201 reports more below LLVM 23
    (tmp_path / "gpu-lint.toml").write_text("mlir-version = 18\n")
    assert _hazard_codes(document(path)) == _hazard_codes(json.loads(out)), "the configuration above the file's folder"
    (path.parent / "gpu-lint.toml").write_text("mlir-version = 23\n")
    monkeypatch.chdir(tmp_path)
    assert _hazard_codes(document(path)) == newest, "the file's folder's configuration, not the current folder's"
    code, _, err = graph(path, "json", "--mlir-version", "99")
    assert code == 2 and err.startswith("gpu-lint graph: error: --mlir-version must be an LLVM major version")


def test_an_empty_file_says_there_is_nothing_to_draw(tmp_path: Path) -> None:
    empty = tmp_path / "empty.mlir"
    empty.write_text("")
    for fmt in ("dot", "svg"):
        code, out, err = graph(empty, fmt)
        assert (code, out) == (0, "")
        assert err == f"gpu-lint graph: nothing to draw: no host function issues GPU work in {empty}\n"


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz is not installed")
def test_svg_says_which_function_it_drew() -> None:
    path = FIXTURES / "GPU411.mlir"
    code, out, err = graph(path, "svg")
    assert code == 0 and out.count("</svg>") == 1
    assert err == "gpu-lint graph: note: drew @main, the first of 6 functions (--function NAME draws another; --format html draws them all)\n"
    code, out, err = graph(path, "svg", "--function", "twice")
    assert (code, err) == (0, "") and "twice" in out
