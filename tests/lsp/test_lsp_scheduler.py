"""The per-document debounce: bursts of edits coalesce, jobs never overlap, closing cancels."""

from __future__ import annotations

import asyncio

from gpu_lsp.lsp.scheduler import Debouncer


def test_a_burst_of_requests_runs_the_job_once_more_at_most() -> None:
    async def scenario() -> list[str]:
        runs: list[str] = []
        running: set[str] = set()
        started = asyncio.Event()
        release = asyncio.Event()

        async def job(key: str) -> None:
            assert key not in running, "jobs for one key never overlap"
            running.add(key)
            runs.append(key)
            if key == "a" and runs.count("a") == 1:
                started.set()
                await release.wait()
            running.discard(key)

        debouncer = Debouncer(job, 0.01)
        for _ in range(50):
            debouncer.request("a")  # one run
        debouncer.request("b")
        await asyncio.wait_for(started.wait(), 5)
        for _ in range(10):
            debouncer.request("a")  # while it runs: folded into one more run
        release.set()
        for _ in range(100):
            await asyncio.sleep(0.01)
            if not debouncer.pending("a") and not debouncer.pending("b"):
                break
        return runs

    runs = asyncio.run(scenario())
    assert runs.count("a") == 2 and runs.count("b") == 1


def test_cancel_drops_pending_work() -> None:
    async def scenario() -> list[str]:
        runs: list[str] = []

        async def job(key: str) -> None:
            runs.append(key)

        debouncer = Debouncer(job, 0.05)
        debouncer.request("a")
        assert debouncer.pending("a")
        debouncer.cancel("a")
        await asyncio.sleep(0.1)
        return runs

    assert asyncio.run(scenario()) == []


def test_a_failing_job_does_not_stop_later_ones() -> None:
    async def scenario() -> list[int]:
        calls: list[int] = []

        async def job(key: str) -> None:
            calls.append(len(calls))
            if len(calls) == 1:
                raise RuntimeError("boom")

        debouncer = Debouncer(job, 0)
        debouncer.request("a")
        await asyncio.sleep(0.01)
        debouncer.request("a")
        await asyncio.sleep(0.01)
        return calls

    assert asyncio.run(scenario()) == [0, 1]


def test_a_request_at_once_skips_the_delay_of_its_first_run_only() -> None:
    async def scenario() -> tuple[list[str], list[str]]:
        runs: list[str] = []
        release = asyncio.Event()

        async def job(key: str) -> None:
            runs.append(key)
            if len(runs) == 1:
                await release.wait()

        debouncer = Debouncer(job, 30.0)  # a delay no test waits for
        debouncer.request("a", at_once=True)
        await asyncio.sleep(0.05)
        first = list(runs)
        debouncer.request("a", at_once=True)  # while it runs: one more run, after the delay
        release.set()
        await asyncio.sleep(0.05)
        debouncer.cancel("a")
        return first, runs

    first, runs = asyncio.run(scenario())
    assert first == ["a"]
    assert runs == ["a"]
