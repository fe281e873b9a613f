"""The nvvm and rocdl dialects: NVIDIA and AMD GPU intrinsics (special registers, barriers, ...)."""

from __future__ import annotations

from gpu_lsp.ir.attributes import OpaqueAttr
from gpu_lsp.ir.opdefs import reader
from gpu_lsp.syntax.cursor import Cursor, OpState

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
    reader(f"nvvm.read.ptx.sreg.{_name}")(
        _special_register
    )
for _name in ROCDL_IDS:
    reader(f"rocdl.{_name}")(_special_register)
