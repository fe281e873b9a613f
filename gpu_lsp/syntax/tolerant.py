"""The reader of ops declared without a format or a hand-written reader: every operand, region and type it can find."""

from __future__ import annotations

from gpu_lsp.ir import types as T
from gpu_lsp.syntax.cursor import ArgDef, BlockRef, Cursor, FormatError, OpState, Ref
from gpu_lsp.syntax.raw import Group, RawRegion
from gpu_lsp.syntax.tokens import Tok


def read_tolerant(c: Cursor, st: OpState) -> None:
    """An op whose syntax is read loosely: every `%use`, `^successor` and region, the
    attribute dictionaries, and result types from a trailing `: (T...) -> R` or `: T`.
    A trailing `: T` that may be the operands' or the results' types gives neither.

    `%x = ...` inside brackets defines an argument of the op's first region. Result
    types that the trailing types do not give are unknown.
    """
    items = c.items
    end = len(items)
    if end and isinstance(items[-1], Tok) and items[-1].type == "LOC":
        end -= 1
    colon = arrow = None
    for k in range(end):
        item = items[k]
        if isinstance(item, Tok):
            if item.type == "COLON":
                colon = k
            elif item.value == "->" and item.type == "PUNCT":
                arrow = k
    if colon is None and arrow is not None:
        colon = arrow  # `%a, %b -> R`: result types after a bare arrow
    defs: list[ArgDef] = []
    refs: list[Ref] = []
    regions: list = []

    def visit(seq: list, nested: bool) -> None:
        n = len(seq)
        for k in range(n):
            item = seq[k]
            if isinstance(item, Tok):
                if item.type == "VALUE":
                    nxt = seq[k + 1] if k + 1 < n else None
                    if nested and isinstance(nxt, Tok) and nxt.value == "=":
                        defs.append(ArgDef(item.value[1:], item.start_pos, item.end_pos, T.UNKNOWN))
                    else:
                        refs.append(Ref(item.value, item.start_pos, item.end_pos))
                elif item.type == "BLOCK_REF":
                    st.successors.append(BlockRef(item.value, item.start_pos, item.end_pos))
                elif item.type == "DICT" and not nested:
                    try:
                        for key, value in c.parse_dict_text(item).entries:
                            st.attributes[key] = value
                    except FormatError:
                        pass
            elif isinstance(item, Group):
                visit(item.items, True)
            elif isinstance(item, RawRegion):
                regions.append(item)
            elif item is None:
                continue

    visit(items[: colon if colon is not None else end], False)
    inputs: list[T.Type] | None = None
    results: list[T.Type] | None = None
    if colon is not None:
        tail = Cursor(c.ctx, items[colon + 1 : end], c.end_pos, c.op_name)
        try:
            if colon == arrow:
                results = tail.result_types()
            elif tail.is_group("(") and tail.is_punct("->", 1):
                fn = tail.function_type()
                inputs, results = list(fn.inputs), list(fn.results)
            else:
                types = tail.type_list()
                if tail.optional_punct("->"):
                    inputs, results = types, tail.result_types()
                elif tail.optional_keyword("to") or tail.optional_keyword("into"):
                    inputs, results = types, [tail.type()]
                elif st.num_results and len(types) == st.num_results:
                    # The operands' types too when as many (`foo.add %a : f32`), or only the results'
                    # (`spirv.GroupNonUniformBallot <Subgroup> %e : vector<4xi32>`): unknown either way.
                    results = types if not refs else None
                elif len(types) == len(refs):
                    inputs = types
            rest = tail.items[tail.i :]
        except FormatError:
            rest = items[colon + 1 : end]
        visit(rest, False)
    if inputs is not None and len(inputs) == len(refs):
        for r, t in zip(refs, inputs):
            r.type = t
    st.refs.extend(refs)
    if results is not None and (len(results) == st.num_results or not st.num_results):
        st.result_types.extend(results)
    else:
        st.result_types.extend([T.UNKNOWN] * st.num_results)
    for k, raw in enumerate(regions):
        st.add_region(raw, defs if k == 0 and defs else None)
    c.i = end
