"""gpu-opt runs the passes: flags in command-line order, options, --pass-pipeline, pass errors."""

from __future__ import annotations

import io

import pytest
from gen_variants import variant
from passes_support import DL
from support.corpus import corpus_files

from gpu_lsp.cli import gpu_opt

GPU = "mlir/test/Dialect/GPU/"


def opt(args: list[str], text: str) -> tuple[int, str, str]:
    opts = gpu_opt.parse_args(args)
    out, err = io.StringIO(), io.StringIO()
    status = gpu_opt.run(opts, text, "input.mlir", out, err)
    return status, out.getvalue(), err.getvalue()


def corpus(name: str) -> str:
    (path,) = corpus_files(f"**/{GPU}{name}")
    return path.read_text()


def test_pass_flags_are_registered():
    for name in ("gpu-launch-sink-index-computations", "gpu-kernel-outlining", "gpu-async-region"):
        assert name in gpu_opt.PASSES


def test_flags_and_textual_pipeline_agree():
    text = variant(3, 7)
    status, by_flags, err = opt(["-gpu-launch-sink-index-computations", "-gpu-kernel-outlining", "-gpu-async-region"], text)
    assert status == 0, err
    pipeline = "builtin.module(gpu-launch-sink-index-computations,gpu-kernel-outlining,func.func(gpu-async-region))"
    status, by_pipeline, err = opt([f"--pass-pipeline={pipeline}"], text)
    assert status == 0, err
    assert by_flags == by_pipeline
    assert "gpu.launch blocks" not in by_flags and "gpu.launch_func async" in by_flags


def test_data_layout_option():
    status, out, err = opt(["-allow-unregistered-dialect", f"-gpu-kernel-outlining=data-layout-str={DL}", "-split-input-file"], corpus("outlining.mlir"))
    assert status == 0, err
    assert out.count("attributes {dlti.dl_spec = #dlti.dl_spec<index = 32 : i32>}") >= 19


def test_async_region_before_outlining_fails_with_upstreams_message():
    status, out, err = opt(["-gpu-async-region"], variant(1, 0))
    assert status == 1 and out == ""
    assert "error: 'gpu.launch' op replace with gpu.launch_func first" in err


def test_verify_diagnostics_matches_the_outlining_errors():
    status, _, err = opt(["-gpu-kernel-outlining", "-verify-diagnostics", "-split-input-file"], corpus("outlining-invalid-symbol.mlir"))
    assert status == 0, err


@pytest.mark.parametrize("pipeline", ["builtin.module(gpu-async-region)", "builtin.module(nope)", "builtin.module(gpu-kernel-outlining"])
def test_bad_pipelines_are_usage_errors(pipeline):
    with pytest.raises(gpu_opt.UsageError):
        gpu_opt.parse_args([f"--pass-pipeline={pipeline}"])


def test_unknown_pass_option_is_a_usage_error(capsys):
    """`-gpu-kernel-outlining=foo=bar`: exit 2 and one line, not a diagnostic at the file's first line (issue 26)."""
    with pytest.raises(gpu_opt.UsageError, match="'gpu-kernel-outlining' does not have an option named 'nope'"):
        gpu_opt.parse_args(["-gpu-kernel-outlining=nope=1"])
    assert gpu_opt.main(["-gpu-kernel-outlining=foo=bar", "-"]) == 2
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", "gpu-opt: error: 'gpu-kernel-outlining' does not have an option named 'foo' (see gpu-opt --help)\n")
