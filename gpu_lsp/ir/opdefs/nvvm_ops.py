"""The nvvm dialect's op definitions (upstream NVVMOps.td)."""

from __future__ import annotations

from gpu_lsp.ir.opdefs.families import family, op_class
from gpu_lsp.ir.opdefs.model import OpDef, declare


def _special_register(register: str, axis: str = "") -> OpDef:
    """NVVM_SpecialRegisterOp: reads the PTX register named like the op (`cluster.ctaid.x` reads
    `%cluster_ctaid.x`: `_` inside the register's name, `.` before its axis)."""
    name = f"nvvm.read.ptx.sreg.{register}{'.' + axis if axis else ''}"
    ptx = register.replace(".", "_") + (f".{axis}" if axis else "")
    return declare(name, f"Reads the PTX special register %{ptx}.", traits="pure", syntax=f"%r = {name} : i32")


_PER_AXIS = ("tid", "ntid", "ctaid", "nctaid", "clusterid", "nclusterid", "cluster.ctaid", "cluster.nctaid")
_read_loosely = op_class("nvvm", "The NVVM operation `{mnemonic}` (read loosely).")
# Loads and stores through a pointer operand, read loosely: their effects by position.
_accessing = (
    _read_loosely("ldmatrix", "Loads matrix fragments from shared memory (PTX ldmatrix).", effects="MemRead:#0"),
    _read_loosely("stmatrix", "Stores matrix fragments to shared memory (PTX stmatrix).", effects="MemWrite:#0"),
    _read_loosely("wmma.load", "Loads a WMMA matrix fragment through a pointer.", effects="MemRead:#0"),
    _read_loosely("wmma.store", "Stores a WMMA matrix fragment through a pointer.", effects="MemWrite:#0"),
    _read_loosely("cp.async.shared.global", "Copies global to shared memory asynchronously (PTX cp.async).", effects="MemWrite:#0, MemRead:#1"),
    _read_loosely("st.bulk", "Initialises a shared memory range (PTX st.bulk).", effects="MemWrite:#0"),
)

OPS: tuple[OpDef, ...] = (
    *_accessing,
    *(_special_register(register, axis) for register in _PER_AXIS for axis in "xyz"),
    *(_special_register(f"envreg{index}") for index in range(32)),
    *family(
        _special_register,
        """
        laneid warpsize warpid nwarpid smid nsmid gridid clock clock64 globaltimer globaltimer.lo cluster.ctarank cluster.nctarank
        aggr.smem.size dynamic.smem.size total.smem.size lanemask.eq lanemask.le lanemask.lt lanemask.ge lanemask.gt
        """,
    ),
    *family(
        _read_loosely,
        """
        addf bar.warp.sync barrier barrier.arrive breakpoint cluster.arrive cluster.arrive.relaxed cluster.wait cos
        cp.async.bulk.commit.group cp.async.bulk.global.shared.cta cp.async.bulk.prefetch cp.async.bulk.shared.cluster.global
        cp.async.bulk.shared.cluster.shared.cta cp.async.bulk.tensor.global.shared.cta cp.async.bulk.tensor.prefetch
        cp.async.bulk.tensor.reduce cp.async.bulk.tensor.shared.cluster.global cp.async.bulk.wait_group cp.async.commit.group
        cp.async.mbarrier.arrive cp.async.wait.group dot.accumulate.2way dot.accumulate.4way elect.sync ex2 exit fence.mbarrier.init
        fence.proxy fence.proxy.acquire fence.proxy.release fence.proxy.sync_restrict fence.sc.cluster fence.sync_restrict fma
        griddepcontrol inline_ptx log2 mapa match.sync mbarrier.arrive mbarrier.arrive.expect_tx mbarrier.arrive.nocomplete
        mbarrier.arrive_drop mbarrier.arrive_drop.expect_tx mbarrier.arrive_drop.nocomplete mbarrier.complete_tx mbarrier.expect_tx
        mbarrier.init mbarrier.inval mbarrier.test.wait mbarrier.try_wait mbarrier.try_wait.parity memory.barrier mma.sync movmatrix
        nanosleep pmevent prefetch prmt rcp.approx.ftz.f redux.sync setmaxregister shfl.sync sin subf vote.sync
        wgmma.commit.group.sync.aligned wgmma.fence.aligned wgmma.mma_async wgmma.wait.group.sync.aligned wmma.mma
        """,
    ),
)
