"""The rocdl dialect's op definitions (upstream ROCDLOps.td)."""

from __future__ import annotations

from gpu_lsp.ir.opdefs.families import family, op_class
from gpu_lsp.ir.opdefs.model import OpDef

_register = op_class("rocdl", "Reads the AMDGPU {mnemonic} value.", "%r = {name} : i32", traits="pure")
_read_loosely = op_class("rocdl", "The ROCDL operation `{mnemonic}` (read loosely).")

OPS: tuple[OpDef, ...] = (
    *(_register(f"{register}.{axis}") for register in ("workitem.id", "workgroup.id", "cluster.id", "cluster.workgroup.id") for axis in "xyz"),
    _register("wave.id"),
    _register("wavefrontsize"),
    *family(
        _read_loosely,
        """
        ballot barrier cos exp exp2 fmed3 iglp.opt log mbcnt.hi mbcnt.lo permlane16.swap permlane32.swap permlanex16 rcp readfirstlane
        readlane rsq s.barrier s.barrier.init s.barrier.join s.barrier.leave s.barrier.signal s.barrier.signal.isfirst s.barrier.signal.var
        s.barrier.wait s.get.barrier.state s.nop s.setprio s.sleep s.wait.dscnt s.wait.expcnt s.wait.loadcnt s.wait.storecnt s.waitcnt
        s.wakeup.barrier sched.barrier sched.group.barrier sin sqrt tanh update.dpp wave.barrier
        """,
    ),
)
