"""The reader's side of the format engine: what the directives read so far, and operands, attributes and types by name."""

from __future__ import annotations

from collections.abc import Callable

from gpu_lsp.ir import types as T
from gpu_lsp.ir.attributes import Attribute, DenseArrayAttr, IntegerAttr, StringAttr, SymbolRefAttr, TypeAttr, UnitAttr
from gpu_lsp.ir.enums import ENUMS
from gpu_lsp.ir.flags import FLAGS, FlagsDef
from gpu_lsp.ir.hooks import filed_under
from gpu_lsp.ir.op_facts import writable_facts
from gpu_lsp.ir.opdefs.defaults import default_attribute
from gpu_lsp.ir.opdefs.opdef import OPTIONAL, SINGLE, VARIADIC, Arg, AttrArg, OpDef
from gpu_lsp.ir.opdefs.typing import buildable_type, dense_array_element, integer_attr_type, stripped_type, transform_type
from gpu_lsp.syntax.cursor import SYMBOL_NAME, BlockRef, Cursor, FormatError, OpState, Ref, item_end, item_start
from gpu_lsp.syntax.raw import RawRegion

_SYMBOL_ATTRS = ("SymbolRefAttr", "FlatSymbolRefAttr")


class FormatState:
    """What the directives read so far: operands, types, regions and successors by name."""

    def __init__(self, op: OpDef) -> None:
        self.op = op
        self.operands: dict[str, list[Ref]] = {}
        self.types: dict[str, list[T.Type]] = {}
        self.regions: dict[str, list[RawRegion | None]] = {}
        self.successors: dict[str, list[BlockRef]] = {}
        # Operand groups as written (name -> (count, where the group starts)) and how many
        # types a type directive gave each: upstream's resolveOperands compares the two.
        self.operand_groups: dict[str, tuple[int, int]] = {}
        self.type_counts: dict[str, int] = {}


# Types an op infers where its format writes none (upstream's InferTypeOpInterface, or a
# TypesMatchWith whose transform needs the type parser): fn(op state, format state) fills `fs.types`.
TypeInference = Callable[[OpState, FormatState], None]
TYPE_INFERENCE: dict[str, TypeInference] = {}


def infers_types(name: str) -> Callable[[TypeInference], TypeInference]:
    """Register how `name` infers the types its format leaves out; an op registered twice is a programming error."""
    return filed_under(TYPE_INFERENCE, name, f"type inference of {name}")


def variable_present(c: Cursor, op: OpDef, name: str) -> bool:
    """Whether `$name` is next: an operand, a region, an enum keyword, a symbol, a string or an attribute."""
    if op.operand(name) is not None or name == "operands":
        return c.is_operand()
    if region_arg(op, name) is not None:
        return c.is_region()
    attr = op.attribute(name)
    if attr is not None and attr.constraint in ENUMS:
        return c.is_token("BARE") and c.peek().value in ENUMS[attr.constraint].cases
    if attr is not None and attr.constraint in _SYMBOL_ATTRS + ("SymbolNameAttr",):
        return c.is_symbol()
    if attr is not None and attr.constraint == "StrAttr":
        return c.is_token("STRING")
    return c.is_attr()


def region_arg(op: OpDef, name: str) -> Arg | None:
    return next((r for r in op.regions or () if r.name == name), None)


def read_variable(c: Cursor, st: OpState, fs: FormatState, name: str) -> None:
    """`$name`: an operand group, a region, a successor or an attribute, as ODS reads each."""
    op = fs.op
    operand = op.operand(name)
    if operand is not None:
        if operand.kind == VARIADIC:
            start = c.here()[0]
            fs.operands[name] = c.operand_list()
            fs.operand_groups[name] = (len(fs.operands[name]), start)
        elif operand.kind == OPTIONAL:
            start = c.here()[0]
            ref = c.optional_operand()
            fs.operands[name] = [ref] if ref is not None else []
            fs.operand_groups[name] = (len(fs.operands[name]), start)
        else:
            fs.operands[name] = [c.operand()]
        return
    if name == "operands":
        start = c.here()[0]
        refs = c.operand_list()
        fs.operand_groups[name] = (len(refs), start)
        for arg, ref in zip(op.operands or (), refs):
            fs.operands[arg.name] = [ref]
        return
    region = region_arg(op, name)
    if region is not None:
        found = fs.regions.setdefault(name, [])
        if region.kind != VARIADIC:
            found.append(c.region())
            return
        # VariadicRegion: `{...}, {...}`, possibly none.
        while c.is_region():
            found.append(c.region())
            if not c.optional_punct(","):
                break
        return
    successor = next((s for s in op.successors or () if s.name == name), None)
    if successor is not None:
        fs.successors.setdefault(name, []).append(c.block_ref())
        return
    attr = op.attribute(name)
    if attr is None:
        raise ValueError(f"{op.name}: the format names ${name}, which the op does not declare")
    st.properties[name] = _attribute(c, attr)


def _attribute(c: Cursor, attr: AttrArg) -> Attribute:
    constraint = attr.constraint
    if constraint == "UnitAttr":
        return UnitAttr()
    enum = ENUMS.get(constraint)
    if enum is not None and enum.angled:
        c.punct("<")
        keyword = c.any_keyword()  # not `tok`: that name is peek()'s Optional below (mypyc checks types)
        if keyword.value not in enum.cases:
            c.fail(enum.unknown(keyword.value), keyword)
        c.punct(">")
        return enum.attribute(keyword.value)
    if enum is not None:
        tok = c.peek()
        # A keyword, or the same word as a string (`arith.cmpi "eq", ...`).
        word = tok.value[1:-1] if c.is_token("STRING") else tok.value if c.is_token("BARE") or c.is_token("TYPE") else None
        if word is None and not _word_follows(c):  # after the op: upstream reads the next op's first token
            c.fail(enum.no_word())
        if word not in enum.cases:
            c.fail(enum.unknown(word))
        c.next()
        return enum.attribute(word)
    flags = FLAGS.get(constraint)
    if flags is not None:
        return _flags(c, flags)
    element = dense_array_element(constraint)
    if element is not None:
        return DenseArrayAttr(element, tuple(_integer_list(c)))
    if constraint in _SYMBOL_ATTRS:
        if not c.is_symbol() and c.is_attr():
            # Upstream parses any attribute, then checks its kind: an alias of a symbol reference is one.
            written = c.peek()
            value = c.attr()
            if not isinstance(value, SymbolRefAttr) or (constraint == "FlatSymbolRefAttr" and value.nested):
                c.fail("invalid kind of attribute specified", written)
            return value
        return c.symbol()
    if constraint == "StrAttr":
        return StringAttr(c.string())
    if constraint == "SymbolNameAttr":
        return StringAttr(c.symbol(SYMBOL_NAME).root)
    if constraint.startswith("TypeAttr"):
        return TypeAttr(c.type())
    ty = integer_attr_type(constraint)
    if ty is not None:
        return IntegerAttr(c.integer(), ty)
    return c.attr()


def _word_follows(c: Cursor) -> bool:
    """Whether the op's items end here and the text goes on with a keyword or a string."""
    if not c.at_end:
        return False
    at, _ = c.here()
    return at < len(c.ctx.text) and (c.ctx.text[at] == '"' or c.ctx.text[at] == "_" or c.ctx.text[at].isalpha())


def _integer_list(c: Cursor) -> list[int]:
    """`[1, 2, 3]` (DenseArrayAttr's custom form)."""
    sub = c.group("[")
    values: list[int] = []
    while not sub.at_end:
        values.append(sub.integer())
        if not sub.at_end:
            sub.punct(",")
    sub.done()
    return values


def _flags(c: Cursor, flags: FlagsDef) -> Attribute:
    """`<nsw, nuw>`: a bit-enum attribute's flags between angle brackets."""
    c.punct("<")
    names: list[str] = []
    while not c.is_punct(">"):
        tok = c.any_keyword()
        names.append(tok.value)
        if flags.canonical([tok.value]) is None:
            c.fail(flags.unknown(tok.value), tok)
        if not c.optional_punct(flags.separator.strip()):
            break
    c.punct(">")
    attr = flags.attribute(names)
    assert attr is not None
    return attr


def read_type_of(c: Cursor, fs: FormatState, name: str, qualified: bool) -> None:
    """`type($name)`: one type, a dialect type in its stripped form (`<...>`) unless `qualified`, or a list."""
    arg = _arg(fs.op, name)
    if arg is not None and arg.kind == SINGLE:
        stripped = None if qualified else stripped_type(arg.constraint)
        fs.types[name] = [_stripped(c, *stripped) if stripped is not None and c.is_punct("<") else c.type()]
        return
    if _arg(fs.op, name) is not None and _arg(fs.op, name).kind == OPTIONAL and not fs.operands.get(name, [None]):  # type: ignore[union-attr]
        return
    set_types(fs, name, c.type_list())


def _stripped(c: Cursor, dialect: str, mnemonic: str) -> T.Type:
    """`<memorySpace = ...>`: a dialect type written without its `!dialect.mnemonic` (ODS's stripped form)."""
    start = item_start(c.punct("<"))
    depth = 1
    while depth:
        if c.at_end:
            c.expected_by_parser("'>'")
        depth += c.is_punct("<") - c.is_punct(">")
        end = item_end(c.next())
    prefix = f"!{dialect}.{mnemonic}"
    return c.parse_type_text(prefix + c.ctx.text[start:end], start - len(prefix), end)


def _arg(op: OpDef, name: str) -> Arg | None:
    return op.operand(name) or op.result(name)


def set_types(fs: FormatState, name: str, types: list[T.Type]) -> None:
    """Types of one named operand/result, or of all operands/results (`operands`, `results`)."""
    declared = _arg(fs.op, name) is not None
    fs.type_counts[name] = len(types)
    if name == "operands" and not declared:
        _spread(fs, fs.op.operands or (), types, use_counts=True)
    elif name == "results" and not declared:
        _spread(fs, fs.op.results or (), types, use_counts=False)
    else:
        fs.types[name] = types


def _spread(fs: FormatState, args: tuple[Arg, ...], types: list[T.Type], use_counts: bool) -> None:
    i = 0
    for arg in args:
        if use_counts:
            n = len(fs.operands.get(arg.name, []))
        else:
            n = 1 if arg.kind == SINGLE else len(types) - i - sum(a.kind == SINGLE for a in args[args.index(arg) + 1 :])
        fs.types[arg.name] = types[i : i + n]
        i += n


# --- after the directives: types, operands, results, segments ---------------------------------


def finish(st: OpState, fs: FormatState) -> None:
    """After the directives: types left out, operands and results in order, segments, inherent attributes."""
    op = fs.op
    _infer_types(fs)
    _check_type_counts(fs)
    infer = TYPE_INFERENCE.get(op.name)
    if infer is not None:
        infer(st, fs)
    for arg in op.operands or ():
        refs = fs.operands.get(arg.name, [])
        types = fs.types.get(arg.name, [])
        for k, ref in enumerate(refs):
            if k < len(types):
                ref.type = types[k]
        st.refs.extend(refs)
    for arg in op.results or ():
        found = fs.types.get(arg.name)
        st.result_types.extend(found if found is not None else [T.UNKNOWN] if arg.kind == SINGLE else [])
    if op.has("attr_sized_operands"):
        sizes = tuple(len(fs.operands.get(arg.name, [])) for arg in op.operands or ())
        st.properties["operandSegmentSizes"] = DenseArrayAttr(T.I32, sizes)
    if op.has("attr_sized_results"):
        counts = tuple(1 if arg.kind == SINGLE else len(fs.types.get(arg.name, [])) for arg in op.results or ())
        st.properties["resultSegmentSizes"] = DenseArrayAttr(T.I32, counts)
    for arg in op.regions or ():
        for raw in fs.regions.get(arg.name, []):
            st.add_region(raw)
    for arg in op.successors or ():
        st.successors.extend(fs.successors.get(arg.name, []))
    if op.successor_operands:
        writable_facts(st).successor_operands = tuple(len(fs.operands.get(name, [])) for name in op.successor_operands)
    _inherent_attributes(st, op)


def _check_type_counts(fs: FormatState) -> None:
    """Upstream's resolveOperands: an operand group and its type list (written or inferred) differ in length."""
    for name, (count, start) in fs.operand_groups.items():
        types = fs.type_counts.get(name)
        if types is not None and types != count:
            raise FormatError(
                f"number of operands and types do not match: got {count} operands and {types} types", start, start, exact=True
            )


def _inherent_attributes(st: OpState, op: OpDef) -> None:
    """Declared attributes written in the attr-dict are properties; absent DefaultValuedAttrs take their default."""
    for attr in op.attributes:
        if attr.name in st.attributes:
            st.properties[attr.name] = st.attributes.pop(attr.name)
        elif attr.stored_default and attr.name not in st.properties and attr.default is not None:
            default = default_attribute(attr.constraint, attr.default)
            if default is not None:
                st.properties[attr.name] = default


def _count(fs: FormatState, arg: Arg, is_operand: bool) -> int:
    if is_operand:
        return len(fs.operands.get(arg.name, []))
    return 1 if arg.kind == SINGLE else len(fs.types.get(arg.name, []))


def _infer_types(fs: FormatState) -> None:
    """Types the format leaves out: buildable constraints, type rules, SameOperandsAndResultType."""
    op = fs.op
    for is_operand, args in ((True, op.operands or ()), (False, op.results or ())):
        for arg in args:
            if arg.name in fs.types:
                continue
            built = buildable_type(arg.constraint)
            if built is not None and (is_operand or arg.kind != VARIADIC):
                fs.types[arg.name] = [built] * _count(fs, arg, is_operand)
    for _ in range(2):
        for rule in op.type_rules:
            if rule.target in fs.types or rule.source not in fs.types or not fs.types[rule.source]:
                continue
            target = _arg(op, rule.target)
            if target is None:
                continue
            derived = transform_type(rule.transform, fs.types[rule.source][0])
            if isinstance(derived, list):
                fs.types[rule.target] = derived
                if op.operand(rule.target) is not None:
                    fs.type_counts[rule.target] = len(derived)
            elif target.kind == VARIADIC and op.result(rule.target) is not None:
                # A variadic result the format leaves out: one type per value of the source.
                fs.types[rule.target] = [derived] * len(fs.types[rule.source])
            else:
                fs.types[rule.target] = [derived] * _count(fs, target, op.operand(rule.target) is not None)
    if op.has("same_type"):
        known = next((ts[0] for ts in fs.types.values() if ts), None)
        if known is not None:
            for is_operand, args in ((True, op.operands or ()), (False, op.results or ())):
                for arg in args:
                    fs.types.setdefault(arg.name, [known] * _count(fs, arg, is_operand))
