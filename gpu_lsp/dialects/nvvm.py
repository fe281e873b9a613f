"""The nvvm and rocdl dialects: NVIDIA and AMD GPU intrinsics (special registers, barriers, ...)."""

from __future__ import annotations

from gpu_lsp.dialects.common import read_tolerant
from gpu_lsp.dialects.registry import op
from gpu_lsp.ir.attributes import OpaqueAttr
from gpu_lsp.parser.cursor import Cursor, OpState

_XYZ = ("x", "y", "z")
NVVM_SREGS = (
    [f"{base}.{d}" for base in ("tid", "ntid", "ctaid", "nctaid", "clusterid", "nclusterid", "cluster.ctaid", "cluster.nctaid") for d in _XYZ]
    + [f"envreg{i}" for i in range(32)]
    + [
        "laneid", "warpsize", "warpid", "nwarpid", "smid", "nsmid", "gridid", "clock", "clock64",
        "globaltimer", "globaltimer.lo", "cluster.ctarank", "cluster.nctarank", "aggr.smem.size",
        "dynamic.smem.size", "total.smem.size", "lanemask.eq", "lanemask.le", "lanemask.lt",
        "lanemask.ge", "lanemask.gt",
    ]
)
ROCDL_IDS = (
    [f"{base}.{d}" for base in ("workitem.id", "workgroup.id", "cluster.id", "cluster.workgroup.id") for d in _XYZ]
    + ["wave.id", "wavefrontsize"]
)
NVVM_OTHERS = (
    "addf", "bar.warp.sync", "barrier", "barrier.arrive", "breakpoint", "cluster.arrive",
    "cluster.arrive.relaxed", "cluster.wait", "cos", "cp.async.bulk.commit.group",
    "cp.async.bulk.global.shared.cta", "cp.async.bulk.prefetch", "cp.async.bulk.shared.cluster.global",
    "cp.async.bulk.shared.cluster.shared.cta", "cp.async.bulk.tensor.global.shared.cta",
    "cp.async.bulk.tensor.prefetch", "cp.async.bulk.tensor.reduce", "cp.async.bulk.tensor.shared.cluster.global",
    "cp.async.bulk.wait_group", "cp.async.commit.group", "cp.async.mbarrier.arrive", "cp.async.shared.global",
    "cp.async.wait.group", "dot.accumulate.2way", "dot.accumulate.4way", "elect.sync", "ex2", "exit",
    "fence.mbarrier.init", "fence.proxy", "fence.proxy.acquire", "fence.proxy.release",
    "fence.proxy.sync_restrict", "fence.sc.cluster", "fence.sync_restrict", "fma", "griddepcontrol",
    "inline_ptx", "ldmatrix", "log2", "mapa", "match.sync", "mbarrier.arrive", "mbarrier.arrive.expect_tx",
    "mbarrier.arrive.nocomplete", "mbarrier.arrive_drop", "mbarrier.arrive_drop.expect_tx",
    "mbarrier.arrive_drop.nocomplete", "mbarrier.complete_tx", "mbarrier.expect_tx", "mbarrier.init",
    "mbarrier.inval", "mbarrier.test.wait", "mbarrier.try_wait", "mbarrier.try_wait.parity", "memory.barrier",
    "mma.sync", "movmatrix", "nanosleep", "pmevent", "prefetch", "prmt", "rcp.approx.ftz.f", "redux.sync",
    "setmaxregister", "shfl.sync", "sin", "st.bulk", "stmatrix", "subf", "vote.sync",
    "wgmma.commit.group.sync.aligned", "wgmma.fence.aligned", "wgmma.mma_async",
    "wgmma.wait.group.sync.aligned", "wmma.load", "wmma.mma", "wmma.store",
)
ROCDL_OTHERS = (
    "ballot", "barrier", "cos", "exp", "exp2", "fmed3", "iglp.opt", "log", "mbcnt.hi", "mbcnt.lo",
    "permlane16.swap", "permlane32.swap", "permlanex16", "rcp", "readfirstlane", "readlane", "rsq",
    "s.barrier", "s.barrier.init", "s.barrier.join", "s.barrier.leave", "s.barrier.signal",
    "s.barrier.signal.isfirst", "s.barrier.signal.var", "s.barrier.wait", "s.get.barrier.state",
    "s.nop", "s.setprio", "s.sleep", "s.wait.dscnt", "s.wait.expcnt", "s.wait.loadcnt", "s.wait.storecnt",
    "s.waitcnt", "s.wakeup.barrier", "sched.barrier", "sched.group.barrier", "sin", "sqrt", "tanh",
    "update.dpp", "wave.barrier",
)


def _special_register(c: Cursor, st: OpState) -> None:
    """`[range <i32, 0, 1024>] attr-dict : i32`."""
    if c.optional_keyword("range"):
        start = c.punct("<").start_pos
        while not c.at_end and not c.is_punct(">"):
            c.next()
        end = c.punct(">").end_pos
        st.properties["range"] = OpaqueAttr(c.ctx.text[start:end], "range")
    c.optional_attr_dict(st)
    st.result_types.append(c.colon_type())


for _name in NVVM_SREGS:
    op(f"nvvm.read.ptx.sreg.{_name}", "pure", f"Reads the PTX special register %{_name.replace('.', '_')}.", f"%r = nvvm.read.ptx.sreg.{_name} : i32")(
        _special_register
    )
for _name in ROCDL_IDS:
    op(f"rocdl.{_name}", "pure", f"Reads the AMDGPU {_name} value.", f"%r = rocdl.{_name} : i32")(_special_register)
for _name in NVVM_OTHERS:
    op(f"nvvm.{_name}", "", f"The NVVM operation `{_name}` (read loosely).")(read_tolerant)
for _name in ROCDL_OTHERS:
    op(f"rocdl.{_name}", "", f"The ROCDL operation `{_name}` (read loosely).")(read_tolerant)
