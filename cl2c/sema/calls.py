"""Calls: builtins resolved against the table (builtins.py, builtins_match.py),
conversions, vector loads and stores, printf, vec_step, user functions."""
from __future__ import annotations

import copy
import re

from pycparser import c_ast

from .. import builtins as bi
from .. import builtins_match
from .. import printf_format
from .. import types as ty
from ..language_version import CL2_0
from .checker import Checker
from .model import Call, SemaError

# Element types of convert_ and as_ (spec 6.2.3, 6.2.4): not bool or the size types, and
# half only under cl_khr_fp16 (Calls._convertible).
_CONVERTIBLE = (ty.CHAR, ty.UCHAR, ty.SHORT, ty.USHORT, ty.INT, ty.UINT, ty.LONG, ty.ULONG,
                ty.FLOAT, ty.DOUBLE)


class Calls(Checker):
    def expr_FuncCall(self, node):
        if not isinstance(node.name, c_ast.ID):
            self.error("calls through function pointers are not allowed in OpenCL C", node)
        name = node.name.name
        args = node.args.exprs if node.args else []
        sym = self.lookup(name)
        if name == "vec_step" and sym is None:
            return self.vec_step(node, args)
        arg_types = [self.rvalue(a) for a in args]
        if name == "printf" and sym is None:
            return self.printf(node, args, arg_types)
        if name in bi.ADDRESS_SPACE_QUERIES and sym is None:
            return self.address_space_query(node, name, arg_types)
        if sym is not None and sym.kind == "func":
            ftype = sym.type
            if len(args) != len(ftype.params):
                self.error(f"function '{name}' takes {len(ftype.params)} argument(s), "
                           f"{len(args)} given", node)
            for a, at, pt in zip(args, arg_types, ftype.params):
                if at == ty.VOID:
                    self.error(f"passing 'void' to parameter of incompatible type '{pt}'", a)
                self.check_pointer_conversion(pt, at, a, a, f"passing to '{name}'")
                if self.incompatible(pt, at):
                    self.error(f"passing '{at}' to parameter of incompatible type '{pt}'", a)
            node.call = Call("function", name, arg_types=tuple(arg_types))
            if self.func is not None:
                self.func.callees.add(name)
                self.func.call_sites.setdefault(name, node)
            return ftype.ret
        if name in bi.NOT_YET:
            self.error(bi.NOT_YET[name], node)
        if name.startswith(("convert_", "as_", "vload", "vstore")):
            return self.conversion_call(node, name, args, arg_types)
        rows = bi.BY_NAME.get(name)
        if rows is None:
            self.error(f"implicit declaration of function '{name}' is invalid in OpenCL", node)
        for row in rows:
            result = builtins_match.match(row, arg_types)
            if result is not None:
                if builtins_match.ambiguous(rows, arg_types):
                    shown = ", ".join(str(t) for t in arg_types)
                    self.error(f"call to '{name}' is ambiguous: no overload of "
                               f"'{name}({shown})' is the best; convert the arguments to "
                               f"one type", node)
                ret, generic, n = result
                node.call = Call("builtin", name, row, generic,
                                                   tuple(arg_types), width=n)
                if row.since > self.cl_std:
                    self._later_version(node, name, row.since)
                if row.header:
                    self.module.runtime_headers.add(row.header)
                if self.func is not None:
                    self.func.builtins.add(name)
                    self.func.workitem |= row.workitem
                    self.func.sync |= row.sync
                return ret
        since = min(row.since for row in rows)
        if since > self.cl_std:         # atomic_load(p) under 1.2, p no atomic_int *
            self._later_version(node, name, since)
        shown = ", ".join(str(t) for t in arg_types)
        if name in bi.IMAGE_FUNCTIONS:
            self._image_call_error(node, name, rows, arg_types, shown)
        self.error(f"no matching function for call to '{name}({shown})'"
                   f"{_floating_atomic_note(name, arg_types)}", node)

    def _image_call_error(self, node, name, rows, arg_types, shown):
        """Why an image read or write matches no row, where it is not just the types."""
        if len(arg_types) > max(len(r.params) for r in rows):
            self.error(f"'{name}({shown})': mip-mapped image reads and writes (with a lod "
                       f"or gradients) are not supported by cl2c", node)
        image = arg_types[0] if arg_types else None
        if isinstance(image, ty.Image):
            reading = name.startswith("read_")
            if reading and image.access == "write_only" or \
                    not reading and image.access == "read_only":
                self.error(f"no matching function for call to '{name}({shown})': a "
                           f"{image.access} image cannot be "
                           f"{'read' if reading else 'written'}", node)
            if reading and image.access == "read_write" and len(arg_types) == 3:
                self.error(f"no matching function for call to '{name}({shown})': a "
                           f"read_write image is read without a sampler", node)

    def _later_version(self, node, name, since):
        self.error(f"{name}() is an OpenCL C {since.dotted} function: build with "
                   f"-cl-std={since.name}", node)

    def address_space_query(self, node, name, arg_types):
        """to_global, to_local, to_private (the pointer in that address space, or NULL
        if it points elsewhere) and get_fence (the fence flags of the memory it points
        to) of OpenCL C 2.0 (6.13.9), on a pointer to any type: so not table rows. The
        pointer converts to a generic one (spec 6.5.5), as __constant ones cannot."""
        if not self.cl_std.generic_address_space:
            self._later_version(node, name, CL2_0)
        ptr = arg_types[0] if len(arg_types) == 1 else None
        if not isinstance(ptr, ty.Pointer) or ptr.space == "constant":
            shown = ", ".join(str(t) for t in arg_types)
            self.error(f"no matching function for call to '{name}({shown})': it takes a "
                       f"pointer to the generic address space", node)
        node.call = Call("address_space", name, None, None, tuple(arg_types))
        if self.func is not None:
            self.func.builtins.add(name)
        if name == "get_fence":
            return ty.UINT
        return ty.Pointer(ptr.pointee, bi.ADDRESS_SPACE_QUERIES[name], ptr.const,
                          ptr.volatile)

    def vec_step(self, node, args):
        """vec_step(x) and vec_step(type) (spec 6.12.13): the number of components, 4 for
        a 3-vector, 1 for a scalar; an int constant. The operand is not evaluated."""
        if len(args) == 1 and isinstance(args[0], c_ast.Typename):
            t, _, _ = self.resolve(args[0])
            args[0].ty = t
            arg_types = [t]
        else:
            arg_types = [self.rvalue(a) for a in args]
        t = arg_types[0] if len(arg_types) == 1 else None
        if t is None or not (t.is_vector or t.is_arithmetic) or t.is_void:
            self.error(f"vec_step takes a scalar or vector operand, not "
                       f"'{', '.join(map(str, arg_types))}'", node)
        n = 1 if t.is_scalar else (4 if t.n == 3 else t.n)
        node.call = Call("vec_step", "vec_step", None, None,
                                           tuple(arg_types), n)
        return ty.INT

    def printf(self, node, args, arg_types):
        """printf (spec 6.12.13): the format, a string literal, is checked against the
        arguments here; each argument is then known to suit its conversion."""
        fmt = args[0] if args else None
        if not (isinstance(fmt, c_ast.Constant) and fmt.type == "string"):
            self.error("the format of printf must be a string literal (OpenCL C 6.12.13: it "
                       "is resolved at compile time)", fmt if fmt is not None else node)
        text, offsets = printf_format.decode_literal(fmt.value)
        try:
            conversions = printf_format.parse(text)
        except printf_format.FormatError as e:
            raise SemaError(f"invalid printf format: {e}",
                            self._inside_literal(fmt, offsets[e.offset])) from None
        rest = args[1:]
        if len(rest) < len(conversions):
            c = conversions[len(rest)]
            self.error(f"printf: '{c.text}' has no argument ({len(conversions)} conversion(s), "
                       f"{len(rest)} argument(s) after the format)", node)
        for i, (c, a, at) in enumerate(zip(conversions, rest, arg_types[1:])):
            literal = isinstance(a, c_ast.Constant) and a.type == "string"
            problem = printf_format.check_argument(c, at, literal)
            if problem is None:
                continue
            severity, message = problem
            message = f"printf argument {i + 2}: {message}"
            if severity == "error":
                self.error(message, a)
            else:
                self.reporter.warning(message, a.coord)
        if len(rest) > len(conversions):
            # evaluated and ignored (spec), as C compilers warn
            self.reporter.warning("printf: more arguments than the format has conversions",
                                  rest[len(conversions)].coord)
        node.call = Call("printf", "printf", None, None, tuple(arg_types),
                                           conversions=tuple(conversions))
        if self.func is not None:
            self.func.builtins.add("printf")
        return ty.INT

    def _inside_literal(self, node: c_ast.Constant, offset: int):
        """The position of character ``offset`` of string literal ``node``, where the
        source line holds the literal as parsed (not concatenated, not from a macro);
        else the literal's own."""
        coord = node.coord
        line = self.reporter.sources.line(coord.file, coord.line) if coord else None
        col = (coord.column or 0) - 1 if coord else -1
        if line is None or col < 0 or line[col:col + len(node.value)] != node.value:
            return coord
        at = copy.copy(coord)
        at.column = coord.column + offset
        return at

    def conversion_call(self, node, name, args, arg_types):
        m = re.fullmatch(r"convert_([a-z]+\d*)(_sat)?(_rte|_rtz|_rtp|_rtn)?", name)
        if m:
            # Spec 6.2.3: between char..double scalars and vectors of the same width;
            # _sat only into integer types.
            target = ty.named_type(m.group(1))
            if target is None or ty.scalar_of(target) not in self._convertible():
                self.error(f"implicit declaration of function '{name}' is invalid in OpenCL "
                           f"(convert_ takes char ... double and their vectors)", node)
            if m.group(2) and ty.scalar_of(target).is_float:
                self.error(f"'{name}': _sat does not apply to conversions to floating-point "
                           f"types", node)
            src = arg_types[0] if len(args) == 1 else None
            if src is None or not (src.is_vector or src.is_arithmetic) or \
                    ty.scalar_of(src) == ty.BOOL or \
                    ty.scalar_of(src) == ty.HALF and not self.fp16 or \
                    ty.width(target) != ty.width(src):
                shown = ", ".join(str(t) for t in arg_types)
                self.error(f"no matching function for call to '{name}({shown})'", node)
            node.call = Call("convert", name, None, target,
                                               tuple(arg_types))
            return target
        m = re.fullmatch(r"as_([a-z]+\d*)", name)
        if m:
            # Spec 6.2.4.2: any scalar or vector type but bool, half (without cl_khr_fp16)
            # and void, into one of the same size.
            target = ty.named_type(m.group(1))
            if target is None or ty.scalar_of(target) not in self._convertible():
                self.error(f"implicit declaration of function '{name}' is invalid in OpenCL",
                           node)
            src = arg_types[0] if len(args) == 1 else None
            if src is None or not (src.is_vector or src.is_arithmetic) or \
                    ty.scalar_of(src) == ty.BOOL or \
                    ty.scalar_of(src) == ty.HALF and not self.fp16 or \
                    ty.type_size(target) != ty.type_size(src):
                self.error(f"invalid reinterpretation: '{name}' needs an operand of "
                           f"{ty.type_size(target)} bytes, not '{src}'", node)
            node.call = Call("as", name, None, target, tuple(arg_types))
            return target
        m = re.fullmatch(r"v(load|store)(a?)_half(\d*)(_rte|_rtz|_rtp|_rtn)?", name)
        if m:
            return self.half_load_store(node, name, m, arg_types)
        m = re.fullmatch(r"vload(\d+)", name)
        if m and len(args) == 2 and isinstance(arg_types[1], ty.Pointer):
            n = int(m.group(1))
            elem = arg_types[1].pointee
            if n not in ty.VECTOR_WIDTHS or elem not in ty.VECTOR_ELEMENTS or \
                    not self._is_offset(arg_types[0]):
                self.error(f"no matching function for call to '{name}({arg_types[0]}, "
                           f"{arg_types[1]})'", node)
            self._check_not_half(elem, node)
            t = ty.Vector(elem, n)
            node.call = Call("vload", name, None, t, tuple(arg_types))
            return t
        m = re.fullmatch(r"vstore(\d+)", name)
        if m and len(args) == 3 and isinstance(arg_types[2], ty.Pointer):
            data, ptr, n = arg_types[0], arg_types[2], int(m.group(1))
            vector = ty.Vector(ptr.pointee, n) if n in ty.VECTOR_WIDTHS and \
                ptr.pointee in ty.VECTOR_ELEMENTS else None
            # a scalar converts to the element type and widens (spec 1.2.1, implicit
            # conversions): vstore3(v.x, 0, p), as the CTS writes it
            if vector is None or not (data == vector or
                                      (data.is_scalar and data.is_arithmetic)) or \
                    not self._is_offset(arg_types[1]):
                self.error(f"no matching function for call to '{name}({data}, "
                           f"{arg_types[1]}, {ptr})'", node)
            self._check_not_half(ptr.pointee, node)
            self._check_store_pointer(node, name, ptr)
            node.call = Call("vstore", name, None, vector, tuple(arg_types))
            return ty.VOID
        self.error(f"'{name}' is not supported yet", node)

    def _convertible(self) -> tuple:
        return _CONVERTIBLE + ((ty.HALF,) if self.fp16 else ())

    @staticmethod
    def _is_offset(t) -> bool:
        return t.is_integer and t.is_scalar

    def _check_store_pointer(self, node, name, ptr: ty.Pointer):
        if ptr.space == "constant":
            self.error(f"'{name}' cannot store to the __constant address space", node)
        if ptr.const:
            self.error(f"'{name}' cannot store through a pointer to const", node)

    def half_load_store(self, node, name, m, arg_types):
        """vload_half[n], vloada_half[n], vstore_half[n][_rtX] and vstorea_half[n][_rtX]
        (spec 6.12.7): half as a storage type, converted to and from float or double."""
        store, n = m.group(1) == "store", int(m.group(3) or 1)
        if n not in (1,) + ty.VECTOR_WIDTHS or (m.group(4) and not store):
            self.error(f"implicit declaration of function '{name}' is invalid in OpenCL",
                       node)
        shown = ", ".join(str(t) for t in arg_types)
        ptr = arg_types[-1] if arg_types else None
        if len(arg_types) != (3 if store else 2) or not isinstance(ptr, ty.Pointer) or \
                ptr.pointee != ty.HALF or not self._is_offset(arg_types[-2]):
            self.error(f"no matching function for call to '{name}({shown})'", node)
        if not store:
            result = ty.vector_of(ty.FLOAT, n)
            node.call = Call("vload_half", name, None, result,
                                               tuple(arg_types))
            return result
        data = arg_types[0]
        if ty.width(data) != n or ty.scalar_of(data) not in (ty.FLOAT, ty.DOUBLE):
            self.error(f"no matching function for call to '{name}({shown})': the data must "
                       f"be float{n if n > 1 else ''} or double{n if n > 1 else ''}", node)
        self._check_store_pointer(node, name, ptr)
        node.call = Call("vstore_half", name, None, data, tuple(arg_types))
        return ty.VOID


def _floating_atomic_note(name: str, arg_types) -> str:
    """Why atomic_fetch_<op> refuses an atomic_float or atomic_double: OpenCL C 2.0 has
    them for integers only (6.13.11.7); the floating-point ones are cl_ext_float_atomics,
    which cl2c does not offer."""
    ptr = arg_types[0] if arg_types else None
    if not (name.startswith("atomic_fetch_") and isinstance(ptr, ty.Pointer)
            and isinstance(ptr.pointee, ty.Atomic)
            and ptr.pointee.value in (ty.FLOAT, ty.DOUBLE)):
        return ""
    return (f": atomic_fetch_ operations on '{ptr.pointee}' are cl_ext_float_atomics, "
            f"which cl2c does not offer")
