"""Types as written (spec 6.1-6.3): declarators, qualifiers and address spaces, struct,
union and enum definitions, image access qualifiers, the extensions a type needs."""
from __future__ import annotations

from pycparser import c_ast
from pycparserext.ext_c_parser import AttributeSpecifier

from .. import types as ty
from ..parse import attribute_name
from .attributes import attributes_of
from .checker import Checker
from .model import ACCESS_QUALIFIERS, SPACE_QUALIFIERS, Symbol


class TypeNames(Checker):
    def resolve(self, node) -> tuple[ty.Type, str, bool]:
        """(type, address space, const) of a declarator chain."""
        if isinstance(node, c_ast.TypeDecl):
            base, space, const = self.base_type(node.type)
            quals = node.quals or []
            written = {SPACE_QUALIFIERS[q] for q in quals if q in SPACE_QUALIFIERS}
            if len(written) > 1 or (written and space != "private" and {space} != written):
                # global constant int (spec 6.5: one address space a type); clang's words
                self.error("multiple address spaces specified for type", node.type)
            for q in quals:
                if q in SPACE_QUALIFIERS:
                    space = SPACE_QUALIFIERS[q]
                elif q == "const":
                    const = True
                elif q in ACCESS_QUALIFIERS:
                    base = self._image_access(base, q, node)
            if space == "constant":
                const = True
            return base, space, const
        if isinstance(node, c_ast.PtrDecl):
            pointee, space, const = self.resolve(node.type)
            if isinstance(pointee, (ty.Image, ty.Sampler)):     # (OpenCL C 6.9 a, b)
                self.error(f"pointer to type '{pointee}' is invalid in OpenCL", node)
            pquals = node.quals or []
            pspace = "private"
            for q in pquals:
                if q in SPACE_QUALIFIERS:
                    pspace = SPACE_QUALIFIERS[q]
            volatile = "volatile" in self._quals(node.type)
            ptr = ty.Pointer(pointee, space if space != "private" or self._explicit_space(node.type)
                             else self._default_space(), const, volatile, "restrict" in pquals)
            return ptr, pspace, "const" in pquals
        if isinstance(node, c_ast.ArrayDecl):
            if node.dim_quals and id(node) not in self._parameter_arrays:
                # C11 6.7.6.2p1: `a[static 4]` in a function parameter's outermost
                # array derivation only
                self.error(f"'{node.dim_quals[0]}' in an array declarator outside a "
                           f"function parameter's outermost array", node)
            elem, space, const = self.resolve(node.type)
            length = None
            if node.dim is not None:
                length = self.const_int(node.dim)
                if length is None:
                    self.error("array size is not an integer constant expression", node.dim)
                if length < 0:       # reported; the declaration goes on with one element
                    self.reporter.error(f"array has a negative size ({length})",
                                        node.dim.coord)
                    length = 1
            if incomplete(elem) or isinstance(elem, ty.Array) and elem.length is None:
                self.error(f"array has incomplete element type '{elem}'", node)
            if length is not None and length * ty.type_size(elem) >= 1 << 61:
                # clang's limit: a size in bits that 64 bits hold (C compilers refuse
                # objects past PTRDIFF_MAX bytes, and a struct of such arrays sooner)
                self.reporter.error(f"array is too large ({length} elements)",
                                    node.dim.coord)
                length = 1
            return ty.Array(elem, length), space, const
        if isinstance(node, c_ast.FuncDecl):
            ret, _, _ = self.resolve(node.type)
            params = []
            if node.args:
                for p in node.args.params:
                    if isinstance(p, c_ast.EllipsisParam):
                        continue
                    if isinstance(p, c_ast.ID):        # int (*f)(a, b): K&R's names
                        self.error(f"type specifier missing for parameter '{p.name}'", p)
                    pt, _, _ = self.resolve_parameter(p.type)
                    if pt == ty.VOID:
                        continue
                    params.append(pt)
            return ty.Function(ret, tuple(params)), "private", False
        if isinstance(node, c_ast.Typename):
            return self.resolve(node.type)
        self.error(f"unsupported declarator {type(node).__name__}", node)

    def resolve_parameter(self, node) -> tuple[ty.Type, str, bool]:
        """``resolve`` of a function parameter's declarator, whose outermost array
        derivation may hold `static` and qualifiers (`float a[static 4]`)."""
        self._parameter_arrays.add(id(node))
        try:
            return self.resolve(node)
        finally:
            self._parameter_arrays.discard(id(node))

    def _image_access(self, base: ty.Type, qualifier: str, node) -> ty.Image:
        """The image type ``base`` under access qualifier ``qualifier`` (spec 6.6):
        read_write only from OpenCL C 2.0 on, and on images only."""
        access = qualifier.removeprefix("__")
        if not isinstance(base, ty.Image):
            self.error(f"access qualifier '{qualifier}' can only be used for image types, "
                       f"not '{base}'", node)
        if access == "read_write" and not self.cl_std.read_write_images:
            self.error("read_write images are an OpenCL C 2.0 feature: build with "
                       "-cl-std=CL2.0 or later", node)
        return ty.Image(base.name, access)

    def _quals(self, node) -> list:
        return list(getattr(node, "quals", None) or [])

    def _explicit_space(self, node) -> bool:
        return any(q in SPACE_QUALIFIERS for q in self._quals(node))

    def _default_space(self) -> str:
        return "generic" if self.cl_std.generic_address_space else "private"

    def base_type(self, node) -> tuple[ty.Type, str, bool]:
        if isinstance(node, c_ast.IdentifierType):
            names = [n for n in node.names]
            t = ty.scalar_from_words(names)
            if t is not None:
                self.offers_type(t, " ".join(names), node)
                return t, "private", False
            if len(names) == 1:
                t = ty.named_type(names[0])
                if isinstance(t, ty.Atomic) and not self.cl_std.atomic_types:
                    self.error(f"'{names[0]}' is an OpenCL C 2.0 type: build with "
                               f"-cl-std=CL2.0 or later", node)
                if t is not None:
                    self.offers_type(t, names[0], node)
                    return t, "private", False
                sym = self.lookup(names[0])
                if sym is not None and sym.kind == "typedef":
                    return sym.type, sym.space, sym.const
                self.error(f"unknown type name '{names[0]}'", node)
            self.error(f"invalid type '{' '.join(names)}'", node)
        if isinstance(node, (c_ast.Struct, c_ast.Union)):
            return self.record(node), "private", False
        if isinstance(node, c_ast.Enum):
            return self.enum(node), "private", False
        self.error(f"unsupported type {type(node).__name__}", node)

    def offers_type(self, t: ty.Type, name: str, node) -> None:
        """A type of an optional extension is an error, at its use, where the device
        does not offer the extension (-cl-ext=-cl_khr_fp64): double and its vectors
        (spec 6.1.1), and the atomic types of 64-bit values (6.13.11.6: atomic_long,
        atomic_ulong, atomic_size_t and the others of a 64-bit device, which need the
        64-bit atomics; atomic_double, which needs double as well)."""
        need = required_extensions(t)
        if any(e not in self.offered for e in need):
            self.error(f"use of type '{name}' requires {_names(need)} support", node)

    def record(self, node, attributes: tuple = ()) -> ty.Record:
        """The Record of a struct or union specifier; ``attributes`` are the attribute
        specifiers written after its closing brace (``struct S {...}
        __attribute__((packed));``)."""
        union = isinstance(node, c_ast.Union)
        rec = self.lookup_tag(node.name) if node.name else None
        first = self.record_definitions.get(id(rec)) if rec is not None else None
        if node.decls is not None and node.name in self.tags[-1] and first is not None \
                and not _same_place(first.coord, node.coord):
            # a second body for the tag in one scope (C11 6.7.2.3p1); the first one stays.
            # (The parser gives each declarator of `struct S {...} x, y;` its own copy of
            # the one body: a copy is where the first is.)
            linked = self.linking and len(self.tags) == 1
            if linked and self._same_body(rec, node, attributes):
                # units of a link that define the tag alike (each unit's types are its
                # own; translated as one program, they are one): the later body is a
                # mention of the first (each unit was checked alone when compiled, so a
                # second body here is another unit's)
                node.decls = None
                return rec
            self.reporter.error(f"redefinition of '{rec}'" + (
                " with another body (cl2c links units as one program, where a tag has one "
                "body: give the units one definition)" if linked else ""), node.coord)
            self.reporter.note("previous definition is here", first.coord)
            return rec
        place = _place(node.coord) if node.name is None and node.decls is not None else None
        if place is not None and place in self.anonymous_records:
            node.record = self.anonymous_records[place]   # another declarator's copy
            return node.record
        if rec is None or (node.decls is not None and rec.fields and
                           node.name not in self.tags[-1]):
            rec = ty.Record(node.name, union)
            if node.name:
                self.tags[-1][node.name] = rec
        if place is not None:
            self.anonymous_records[place] = rec
        if node.decls is not None:
            self._complete(rec, node, attributes)
            self.record_definitions[id(rec)] = node
            # Lowering writes the attributes into the C definition (the layout is the
            # C compiler's): keep the record of each definition.
            node.record = rec
        return rec

    def _same_body(self, rec: ty.Record, node, attributes: tuple) -> bool:
        """Whether the body ``node`` gives ``rec``'s tag again is ``rec``'s: the same
        fields of the same types, the same layout attributes."""
        other = ty.Record(rec.tag, rec.union)
        self._complete(other, node, attributes)
        return alike_bodies(other, rec)

    def _complete(self, rec: ty.Record, node, attributes: tuple) -> None:
        """Complete ``rec`` with the fields and layout attributes of the body ``node``."""
        fields, const_fields, field_align = [], set(), {}
        specs = [getattr(node, a, None) for a in ("attrs", "attributes", "attrib")]
        packed, align = self._layout_attributes([a for a in specs if a] +
                                                list(attributes))
        for d in node.decls:
            if d.name is None and isinstance(d.type, (c_ast.Struct, c_ast.Union)):
                # an unnamed member (C11 6.7.2.1p13): its fields are the record's
                ft = self.record(d.type)
            else:
                ft, _, const = self.resolve(d.type)
                if const and d.name:
                    const_fields.add(d.name)
            if isinstance(ft, ty.RUNTIME_OBJECTS):     # (OpenCL C 6.9 a, b)
                self.reporter.error(f"the '{ft}' type cannot be used to declare a structure "
                                    f"or union field", d.coord)
            if getattr(d, "bitsize", None) is not None:
                # OpenCL C 6.9 (k): no bit-fields (C would have laid them out as C does);
                # reported, and kept as a whole member, so that its uses add no errors
                self.reporter.error("bit-fields are not supported in OpenCL", d.coord)
            if ft.is_function or incomplete(ft):
                # reported, and the field left out: the record is still defined
                self.reporter.error(
                    f"field '{d.name}' is declared as a function" if ft.is_function else
                    f"field '{d.name}' has incomplete type '{ft}'" +
                    (" (a struct cannot contain itself)" if ft is rec else ""), d.coord)
                continue
            fields.append((d.name, ft))
            d.ty, d.space = ft, "private"
            wanted = self.member_alignment(d)
            if wanted and d.name:
                field_align[d.name] = wanted
                if wanted > (1 if packed else ty.type_align(ft)):
                    # in C as the same attribute, before the declaration (GCC's and
                    # clang's C lay it out as OpenCL's clang: in a packed record too,
                    # where C11's _Alignas could not ask less than the type's own)
                    d.funcspec = [f"__attribute__((aligned({wanted})))"]
        rec.complete(fields, packed=packed, align_attr=align, const_fields=const_fields,
                     field_align=field_align)

    def _layout_attributes(self, specs) -> tuple[bool, int]:
        """(packed, aligned bytes) of a record's __attribute__ specifiers. aligned takes
        an integer constant expression (pyopencl-complex.h: ``2*sizeof(float)``)."""
        packed, align = False, 0
        for e in attributes_of(s for s in specs if isinstance(s, AttributeSpecifier)):
            name = attribute_name(e)
            if name == "packed":
                packed = True
            elif name == "aligned":
                align = max(align, self.alignment(e) or 0)
        return packed, align

    def enum(self, node) -> ty.Enum:
        known = self.lookup_tag(node.name) if node.name else None
        if node.values is None and isinstance(known, ty.Enum):
            return known        # a mention of a declared enum
        e = ty.Enum(node.name, defined=node.values is not None)
        if node.name:
            forward = self.tags[-1].get(node.name)
            if node.values is not None and isinstance(forward, ty.Enum):
                # its definition completes the type a declaration named (types that
                # were made from it then included), as a struct's does
                object.__setattr__(forward, "defined", True)
            self.tags[-1][node.name] = e
        if node.values is not None:
            value = 0
            for en in node.values.enumerators:
                if en.value is not None:
                    v = self.const_int(en.value)
                    if v is None:
                        self.error("enumerator value is not an integer constant", en.value)
                    value = v
                self.declare(Symbol(en.name, ty.INT, "enum", node=value))
                value += 1
        return e

    # ---- declarations ----------------------------------------------------------------


_INT64_ATOMICS = ("cl_khr_int64_base_atomics", "cl_khr_int64_extended_atomics")


def required_extensions(t: ty.Type) -> tuple[str, ...]:
    """The extensions a device must offer for type ``t`` (spec 6.1.1, 6.13.11.6)."""
    if isinstance(t, ty.Atomic):
        fp64 = ("cl_khr_fp64",) if t.value == ty.DOUBLE else ()
        return fp64 + (_INT64_ATOMICS if t.value.size == 8 else ())
    return ("cl_khr_fp64",) if ty.scalar_of(t) == ty.DOUBLE else ()


def _names(words) -> str:
    words = list(words)
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def incomplete(t: ty.Type) -> bool:
    """A struct, union or enum declared but not (yet) defined, as a value's type."""
    return isinstance(t, (ty.Record, ty.Enum)) and not t.defined


def alike(a: ty.Type, b: ty.Type) -> bool:
    """Whether two types are one in a link's program: the same type, or anonymous
    structs or unions of alike bodies (each unit has its own; translated as one program,
    they are one)."""
    if a == b:
        return True
    if isinstance(a, ty.Record) and isinstance(b, ty.Record):
        return a.tag is None and b.tag is None and alike_bodies(a, b)
    if isinstance(a, ty.Array) and isinstance(b, ty.Array):
        return a.length == b.length and alike(a.elem, b.elem)
    if isinstance(a, ty.Pointer) and isinstance(b, ty.Pointer):
        return (a.space, a.const, a.volatile, a.restrict) == \
            (b.space, b.const, b.volatile, b.restrict) and alike(a.pointee, b.pointee)
    return False


def alike_bodies(a: ty.Record, b: ty.Record) -> bool:
    """The same fields of alike types, the same layout attributes."""
    return a.defined and b.defined and \
        (a.union, a.packed, a.align_attr, len(a.fields), a.const_fields, a.field_align) == \
        (b.union, b.packed, b.align_attr, len(b.fields), b.const_fields, b.field_align) and \
        all(na == nb and alike(ta, tb) for (na, ta), (nb, tb) in zip(a.fields, b.fields))


def _same_place(a, b) -> bool:
    return a is not None and b is not None and _place(a) == _place(b)


def _place(coord) -> tuple | None:
    return None if coord is None else (coord.file, coord.line, coord.column)
